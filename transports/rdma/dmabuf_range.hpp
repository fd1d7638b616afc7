// The range a DMA-BUF export of GPU memory covers: cuMemGetHandleForAddressRange wants a
// page-aligned start and length, and ibv_reg_dmabuf_mr then names the buffer by its offset
// into that export (perftest cuda_memory.c). Passing the raw pointer with offset 0 fails, or
// registers the wrong bytes, whenever the allocation does not start on a page.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpubench::transports::rdma {

struct dmabuf_range {
  std::uint64_t base = 0;    // page-aligned start of the export
  std::uint64_t offset = 0;  // where the buffer starts inside it
  std::uint64_t length = 0;  // page-aligned length of the export, covering the whole buffer
};

// `page` must be a power of two (the host page size).
constexpr dmabuf_range dmabuf_range_for(std::uint64_t addr, std::uint64_t size,
                                        std::uint64_t page) {
  dmabuf_range r;
  r.base = addr & ~(page - 1);
  r.offset = addr - r.base;
  r.length = (r.offset + size + page - 1) & ~(page - 1);
  return r;
}

}  // namespace gpubench::transports::rdma

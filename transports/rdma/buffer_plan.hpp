// How large an RDMA case's registered buffers are: a source and a target region, each its own
// memory region, sized for the largest message within what the device registers at once
// (ibv_query_device max_mr_size: VMware's PVRDMA takes at most 1 GiB) and carries in one work
// request (ibv_query_port max_msg_sz). Pure arithmetic, so the limits are unit-tested.
#pragma once

#include <cstdint>
#include <string>

namespace gpubench::transports::rdma {

struct buffer_plan {
  std::uint64_t largest_message = 0;  // the largest size the buffers hold; 0 when none fits
  std::uint64_t region_bytes = 0;     // each of the two regions: largest_message rounded up
  std::string limit;                  // empty when the case's largest size fits; else why not
};

// `requested`: the case's largest message; `granule`: what each region is rounded up to (the
// host page, or the GPU page GPUDirect registers); `max_mr_size`, `max_msg_size`: the device's
// limits (0: not reported, no limit). `device` names the device in `limit`.
buffer_plan plan_buffers(std::uint64_t requested, std::uint64_t granule, std::uint64_t max_mr_size,
                         std::uint64_t max_msg_size, const std::string& device);

// "1 GiB", "512 MiB", "4 KiB", "1000 B": sizes in the words --sizes uses.
std::string size_text(std::uint64_t bytes);

}  // namespace gpubench::transports::rdma

// The memory an RDMA case moves: host pages or GPU memory (GPUDirect RDMA), each knowing how
// to register itself with a protection domain.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "transports/rdma/verbs.hpp"

namespace gpubench::transports::rdma {

class rdma_memory {
 public:
  virtual ~rdma_memory() = default;
  virtual std::byte* data() = 0;
  virtual std::size_t size() const = 0;
  // False for GPU memory: the CPU must not touch it (no inline, no polling on it).
  virtual bool host_accessible() const = 0;
  // Throws with the device named; GPU memory says what is missing (nvidia-peermem, DMA-BUF).
  virtual mr_ptr register_region(ibv_pd* pd, int access, const std::string& device) = 0;
  // "host memory, NUMA node 0" / "GPU 0 memory via DMA-BUF": for the result's context.
  virtual std::string describe() const = 0;
};

// Page-aligned, zeroed host memory, first touched by the calling thread (bind it first).
std::unique_ptr<rdma_memory> make_host_memory(std::size_t bytes);
// cudaMalloc'd memory on `gpu`; throws core::skip_case when built without CUDA or no GPU.
std::unique_ptr<rdma_memory> make_cuda_memory(std::size_t bytes, int gpu);

}  // namespace gpubench::transports::rdma

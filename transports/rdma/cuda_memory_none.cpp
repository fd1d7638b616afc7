// Builds without CUDA: GPU memory for RDMA is unavailable, with the reason.
#include "core/errors.hpp"
#include "transports/rdma/rdma_memory.hpp"

namespace gpubench::transports::rdma {

std::unique_ptr<rdma_memory> make_cuda_memory(std::size_t, int) {
  throw core::skip_case(
      "--rdma-memory cuda needs GPUDirect RDMA: built without CUDA (no CUDA compiler at "
      "configure time)");
}

}  // namespace gpubench::transports::rdma

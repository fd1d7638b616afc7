#include "transports/nccl/cuda_resources.hpp"

#include <stdexcept>

#include "core/units.hpp"

namespace gpubench::transports::nccl {

void cuda_check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  throw std::runtime_error(what + ": " + cudaGetErrorString(e));
}

cuda_stream::cuda_stream(int device) : m_device(device) {
  cuda_check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  cuda_check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking),
             "creating a stream on GPU " + std::to_string(device));
}

cuda_stream::~cuda_stream() {
  if (!m_stream) return;
  cudaSetDevice(m_device);
  cudaStreamDestroy(m_stream);
}

device_buffer::device_buffer(int device, std::size_t bytes) : m_device(device), m_bytes(bytes) {
  cuda_check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  cuda_check(cudaMalloc(&m_ptr, bytes == 0 ? 1 : bytes),
             "allocating " + core::format_bytes(bytes) + " on GPU " + std::to_string(device));
  // Zeros: summing them again and again stays zero (no overflow to inf or NaN).
  if (const cudaError_t e = cudaMemset(m_ptr, 0, bytes); e != cudaSuccess) {
    cudaFree(m_ptr);  // no destructor runs for a constructor that throws
    cuda_check(e, "clearing a buffer on GPU " + std::to_string(device));
  }
}

device_buffer::~device_buffer() {
  if (!m_ptr) return;
  cudaSetDevice(m_device);
  cudaFree(m_ptr);
}

}  // namespace gpubench::transports::nccl

// RAII for what the NCCL backend holds on each GPU: a non-blocking stream and device
// buffers, each released on the device it was created on.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace gpubench::transports::nccl {

// Throws std::runtime_error("<what>: <CUDA's error string>") unless e is cudaSuccess.
void cuda_check(cudaError_t e, const std::string& what);

class cuda_stream {
 public:
  explicit cuda_stream(int device);
  ~cuda_stream();
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  cudaStream_t get() const { return m_stream; }

 private:
  int m_device;
  cudaStream_t m_stream = nullptr;
};

class device_buffer {
 public:
  device_buffer(int device, std::size_t bytes);
  ~device_buffer();
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  void* get() const { return m_ptr; }
  std::size_t size() const { return m_bytes; }

 private:
  int m_device;
  std::size_t m_bytes;
  void* m_ptr = nullptr;
};

}  // namespace gpubench::transports::nccl

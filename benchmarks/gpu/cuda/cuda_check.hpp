// CUDA error checking with context, and a guard that restores the current device.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace gpubench::benchmarks::gpu::cuda {

// "what: CUDA error string (cudaErrorName)"; used for every call whose failure matters.
inline std::string error_text(cudaError_t e) {
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

inline void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw std::runtime_error(what + ": " + error_text(e));
}

// Makes `device` current for a scope: CUDA's current device is per thread, and the runner
// and other cases expect it unchanged.
class device_guard {
 public:
  explicit device_guard(int device) {
    check(cudaGetDevice(&m_previous), "reading the current CUDA device");
    check(cudaSetDevice(device), "selecting CUDA device " + std::to_string(device));
  }
  ~device_guard() { cudaSetDevice(m_previous); }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int m_previous = 0;
};

}  // namespace gpubench::benchmarks::gpu::cuda

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
  explicit device_guard(int device) : m_device(device) {
    check(cudaGetDevice(&m_previous), "reading the current CUDA device");
    check(cudaSetDevice(device), "selecting CUDA device " + std::to_string(device));
  }
  ~device_guard() {
    // A previous device that cannot be made current again (a broken GPU 0, or one another
    // process holds in EXCLUSIVE_PROCESS mode) must not fail this case later: its error
    // would stay CUDA's last error and be read by the next launch check.
    if (m_previous != m_device && cudaSetDevice(m_previous) != cudaSuccess) cudaGetLastError();
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int m_device;
  int m_previous = 0;
};

// device_guard for destructors and other code that must not throw: when `device` cannot be
// made current, nothing changes and the error is cleared.
class quiet_device_guard {
 public:
  explicit quiet_device_guard(int device) noexcept {
    if (cudaGetDevice(&m_previous) != cudaSuccess) {
      cudaGetLastError();
      return;
    }
    if (m_previous == device) return;
    m_switched = cudaSetDevice(device) == cudaSuccess;
    if (!m_switched) cudaGetLastError();
  }
  ~quiet_device_guard() {
    if (m_switched && cudaSetDevice(m_previous) != cudaSuccess) cudaGetLastError();
  }
  quiet_device_guard(const quiet_device_guard&) = delete;
  quiet_device_guard& operator=(const quiet_device_guard&) = delete;

 private:
  int m_previous = 0;
  bool m_switched = false;
};

}  // namespace gpubench::benchmarks::gpu::cuda

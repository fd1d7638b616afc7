// CUDA error checking with context, and selecting the current device.
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

// Makes `device` current for the calls that follow. Nothing puts the previous device back:
// every CUDA call of the gpu family is made after selecting its own device (the NCCL and RDMA
// code select theirs too), so none relies on what a thread had before, and putting it back
// opened a context there: since CUDA 12, cudaSetDevice initialises the device's primary
// context, and a thread that never chose a device has device 0, so every job on GPU 2 also
// opened a context on GPU 0 (its memory taken there; a failure where another process holds
// GPU 0 in EXCLUSIVE_PROCESS mode). The CPU stand-in's tests (tests/standin) check that a job
// opens contexts on its own GPUs only.
inline void select_device(int device) {
  check(cudaSetDevice(device), "selecting CUDA device " + std::to_string(device));
}

// select_device for destructors and other code that must not throw: when `device` cannot be
// made current, the error is cleared (so the next launch check does not read it).
inline void select_device_quietly(int device) noexcept {
  if (cudaSetDevice(device) != cudaSuccess) cudaGetLastError();
}

}  // namespace gpubench::benchmarks::gpu::cuda

#include <string>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/jobs.hpp"
#include "core/errors.hpp"

namespace gpubench::gpu::cuda {

peer_access::peer_access(int a, int b, bool enable) {
  for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    const device_guard guard(from);
    const std::string what =
        "GPU " + std::to_string(from) + " -> GPU " + std::to_string(to) + " peer access";
    if (!enable) {
      const cudaError_t e = cudaDeviceDisablePeerAccess(to);
      if (e == cudaErrorPeerAccessNotEnabled)
        cudaGetLastError();  // already off: clear the sticky-looking last error
      else
        check(e, "disabling " + what);
      continue;
    }
    int can = 0;
    check(cudaDeviceCanAccessPeer(&can, from, to), "asking for " + what);
    if (!can)
      throw core::skip_case("needs " + what +
                            ": cudaDeviceCanAccessPeer says no (no P2P path; "
                            "the access=staged case measures the copy through host memory)");
    const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();
    } else {
      check(e, "enabling " + what);
      m_enabled.emplace_back(from, to);
    }
  }
}

peer_access::~peer_access() {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) return;
  for (const auto& [from, to] : m_enabled)
    if (cudaSetDevice(from) == cudaSuccess) cudaDeviceDisablePeerAccess(to);
  cudaSetDevice(previous);
  cudaGetLastError();
}

}  // namespace gpubench::gpu::cuda

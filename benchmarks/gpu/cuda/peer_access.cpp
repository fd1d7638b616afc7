#include <string>
#include <utility>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/jobs.hpp"
#include "benchmarks/gpu/peer_enable.hpp"
#include "core/errors.hpp"

namespace gpubench::benchmarks::gpu::cuda {

namespace {

std::string direction_text(int from, int to) {
  return "GPU " + std::to_string(from) + " -> GPU " + std::to_string(to) + " peer access";
}

}  // namespace

peer_access::peer_access(int a, int b, bool enable) {
  if (!enable) {
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      select_device(from);
      const cudaError_t e = cudaDeviceDisablePeerAccess(to);
      if (e == cudaErrorPeerAccessNotEnabled)
        cudaGetLastError();  // already off: clear the sticky-looking last error
      else
        check(e, "disabling " + direction_text(from, to));
    }
    return;
  }
  // All or nothing (peer_enable.hpp): a failure the second way turns the first way off.
  const peer_ops ops{
      [](int from, int to) {
        select_device(from);
        int can = 0;
        check(cudaDeviceCanAccessPeer(&can, from, to), "asking for " + direction_text(from, to));
        if (!can)
          throw core::skip_case("needs " + direction_text(from, to) +
                                ": cudaDeviceCanAccessPeer says no (no P2P path; the "
                                "access=staged case measures the copy through host memory)");
        const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) {
          cudaGetLastError();
          return false;
        }
        check(e, "enabling " + direction_text(from, to));
        return true;
      },
      [](int from, int to) { disable_quietly(from, to); }};
  m_enabled = enable_both_ways(a, b, ops);
}

void peer_access::disable_quietly(int from, int to) noexcept {
  if (cudaSetDevice(from) == cudaSuccess) cudaDeviceDisablePeerAccess(to);
  cudaGetLastError();
}

peer_access::~peer_access() {
  for (const auto& [from, to] : m_enabled)
    disable_quietly(from, to);
}

}  // namespace gpubench::benchmarks::gpu::cuda

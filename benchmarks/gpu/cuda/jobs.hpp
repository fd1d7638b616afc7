// Factories of the CUDA copy and latency jobs, and the peer-access scope they share.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "benchmarks/gpu/gpu_backend.hpp"

namespace gpubench::benchmarks::gpu::cuda {

std::unique_ptr<copy_job> make_host_copy_job(const host_copy_request& r);
std::unique_ptr<copy_job> make_p2p_copy_job(const p2p_copy_request& r);
std::unique_ptr<copy_job> make_latency_job(const latency_request& r);

// Peer access between two GPUs for a job's lifetime. Enabled in both directions (access is
// one-way) and disabled again at the end, so a later staged case is not silently direct.
// With `enable` false it disables access, so the driver stages copies through host memory.
class peer_access {
 public:
  peer_access(int a, int b, bool enable);
  ~peer_access();
  peer_access(const peer_access&) = delete;
  peer_access& operator=(const peer_access&) = delete;

 private:
  static void disable_quietly(int from, int to) noexcept;
  std::vector<std::pair<int, int>> m_enabled;  // (from, to) this scope turned on
};

}  // namespace gpubench::benchmarks::gpu::cuda

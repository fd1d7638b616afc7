#include "benchmarks/gpu/launch_checks.hpp"

#include <string_view>

namespace gpubench::benchmarks::gpu {

std::optional<std::string> latch_refusal(const char* cuda_launch_blocking) {
  if (!cuda_launch_blocking) return std::nullopt;
  const std::string_view v(cuda_launch_blocking);
  // CUDA treats any value but "0" (and empty) as on.
  if (v.empty() || v == "0") return std::nullopt;
  return "CUDA_LAUNCH_BLOCKING=" + std::string(v) +
         " makes every kernel launch wait for the kernel, so copies cannot be queued behind "
         "the spin latch (each sample would wait for the latch's 10 s timeout and fail); "
         "unset CUDA_LAUNCH_BLOCKING to run the latched GPU cases";
}

std::string placement_problem(std::optional<unsigned> requested,
                              const std::vector<unsigned>& nodes) {
  auto list = [&] {
    std::string s;
    for (const unsigned n : nodes)
      s += (s.empty() ? "" : ", ") + std::to_string(n);
    return s;
  };
  // No node asked for (the default policy), or the kernel would not say: nothing to check.
  if (!requested || nodes.empty()) return {};
  if (nodes.size() > 1)
    return "host memory bound to NUMA node " + std::to_string(*requested) +
           " is spread over NUMA nodes " + list() + ", not on that node alone";
  if (nodes.front() != *requested)
    return "host memory bound to NUMA node " + std::to_string(*requested) + " landed on node " +
           list();
  return {};
}

}  // namespace gpubench::benchmarks::gpu

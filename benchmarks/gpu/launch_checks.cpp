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

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string driver_too_old_reason(int driver_version, int runtime_version) {
  std::string driver =
      driver_version > 0 ? "CUDA " + cuda_version_text(driver_version) : "an unknown CUDA version";
  return "the NVIDIA driver supports " + driver + " but gpubench was built with the CUDA " +
         cuda_version_text(runtime_version) +
         " runtime: update the driver, or rebuild with CUDA_HOME pointing at a toolkit no newer "
         "than " +
         (driver_version > 0 ? "CUDA " + cuda_version_text(driver_version)
                             : std::string("the driver's CUDA version (nvidia-smi shows it)"));
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

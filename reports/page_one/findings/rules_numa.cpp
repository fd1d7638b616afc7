// gpu.remote_numa: a GPU fed from another NUMA node's memory much slower than from its own.
// Some loss is normal (the copy crosses the CPU interconnect); a large one means a job that
// is not pinned next to its GPU loses that much of its input bandwidth.
#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

struct copy_key {
  long long gpu = 0;
  std::size_t direction = 0;  // index into host_copy_directions
  std::string memory;
  std::string engine;
  auto operator<=>(const copy_key&) const = default;
};

}  // namespace

std::vector<finding> remote_numa_rule(const core::result_file& f, const rule_options& o) {
  // Per GPU, memory and engine: the rate from each NUMA node.
  std::map<copy_key, std::map<long long, double>> rates;
  for (std::size_t d = 0; d < std::size(host_copy_directions); ++d)
    for (const auto* c : measured_cases(f, host_copies(host_copy_directions[d]))) {
      const auto gpu = int_param(*c, "gpu");
      const auto numa = int_param(*c, "numa");
      const auto v = largest_median(*c);
      if (!gpu || !numa || !v) continue;
      rates[{*gpu, d, text_param(*c, "memory"), text_param(*c, "engine")}][*numa] = *v;
    }
  std::map<long long, std::vector<std::string>> slow;  // per GPU: the evidence
  std::map<long long, double> worst;
  for (const auto& [key, by_node] : rates) {
    const auto own = gpu_numa_node(f, key.gpu);
    if (!own || !by_node.contains(*own)) continue;
    const double local = by_node.at(*own);
    if (local <= 0) continue;
    for (const auto& [node, v] : by_node) {
      if (node == *own || v >= o.remote_numa_penalty * local) continue;
      slow[key.gpu].push_back(
          fmt::format("{} ({} memory, {}) {} from node {} against {} from "
                      "its own node {} ({})",
                      direction_text(host_copy_directions[key.direction]), key.memory, key.engine,
                      figure(v, "GB/s"), node, figure(local, "GB/s"), *own, percent(v / local)));
      const double r = v / local;
      if (!worst.contains(key.gpu) || r < worst[key.gpu]) worst[key.gpu] = r;
    }
  }
  if (slow.empty()) return {};
  // One finding: a remote-node loss usually has one cause (binding, the CPU interconnect).
  std::vector<std::string> names, evidence, binds;
  double worst_all = 1;
  for (const auto& [gpu, lines] : slow) {
    names.push_back(std::to_string(gpu));
    evidence.insert(evidence.end(), lines.begin(), lines.end());
    worst_all = std::min(worst_all, worst[gpu]);
    if (const auto own = gpu_numa_node(f, gpu))
      binds.push_back(fmt::format("GPU {}: node {}", gpu, *own));
  }
  const bool one = names.size() == 1;
  std::vector<finding> out;
  out.push_back(
      {"gpu.remote_numa", severity::warning,
       fmt::format("GPU{} {}", one ? "" : "s", fmt::join(names, ", ")),
       fmt::format("GPU{} {} {} fed up to {} slower from a remote NUMA node than from {} own",
                   one ? "" : "s", fmt::join(names, ", "), one ? "is" : "are",
                   percent(1 - worst_all), one ? "its" : "their"),
       fmt::format("{}", fmt::join(evidence, "; ")),
       fmt::format("Pin each rank's threads and host buffers to its GPU's node ({}; numactl "
                   "--cpunodebind=N --membind=N or the launcher's binding); a loss this large "
                   "also points at the CPU interconnect (UPI/xGMI link count and speed in the "
                   "BIOS) or at memory missing on the remote node",
                   fmt::join(binds, ", "))});
  return out;
}

}  // namespace gpubench::reports::page_one::findings

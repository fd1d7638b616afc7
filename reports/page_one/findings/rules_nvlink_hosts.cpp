// gpu.nvlink_across_hosts: GPU pairs measured across hosts (a multinode nvbandwidth run names
// each GPU's host: context src_host, dst_host) against pairs within a host. As fast across as
// within: one NVLink domain spans the hosts (multi-node NVLink); far slower across: the
// domain ends at the host and the traffic leaves through the network.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

namespace {

// Across at this fraction of within or more: the same fabric.
constexpr double same_fabric = 0.9;

}  // namespace

std::vector<finding> nvlink_hosts_rule(const core::result_file& f, const rule_options& o) {
  std::vector<double> within, across;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::gpu_gpu) || c.status != core::case_status::ok ||
        c.metric != "bandwidth" || c.points.empty() || !c.context.is_object())
      continue;
    const auto a = c.context.find("src_host"), b = c.context.find("dst_host");
    if (a == c.context.end() || b == c.context.end() || !a->is_string() || !b->is_string() ||
        a->get<std::string>().empty() || b->get<std::string>().empty())
      continue;
    (*a == *b ? within : across).push_back(c.points.back().stats.median);
  }
  if (within.size() < static_cast<std::size_t>(o.min_siblings) || across.empty()) return {};
  const double in = median_of(within), out = median_of(across);
  if (!(in > 0)) return {};
  const double ratio = out / in;
  const auto evidence = fmt::format(
      "median of {} pairs across hosts {}, of {} pairs within a host {} ({} of it)", across.size(),
      figure(out, "GB/s"), within.size(), figure(in, "GB/s"), percent(ratio));
  if (ratio >= same_fabric)
    return {{"gpu.nvlink_across_hosts", severity::info, "GPU pairs across hosts",
             "GPU pairs across hosts copy as fast as pairs within a host: one NVLink domain "
             "spans the hosts",
             evidence,
             "Nothing to fix; size jobs to the NVLink domain (nvidia-smi -q: Fabric, "
             "ClusterUUID), not to the host"}};
  return {{"gpu.nvlink_across_hosts", severity::info, "GPU pairs across hosts",
           "GPU pairs across hosts are much slower than within a host: the NVLink domain ends at "
           "the host",
           evidence,
           "Expected without multi-node NVLink; if the hosts should share a domain, check the "
           "fabric manager and IMEX/ComputeDomain setup (nvidia-smi -q: Fabric)"}};
}

}  // namespace gpubench::reports::page_one::findings

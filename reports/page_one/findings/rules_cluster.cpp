// cluster.suspect: every slow node or link that the cluster verdict names (cluster/suspects.hpp,
// docs/cluster.md), as a finding, so page one and the console show the same verdict.
#include <fmt/format.h>

#include "cluster/suspects.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

std::vector<finding> cluster_suspect_rule(const core::result_file& f, const rule_options&) {
  std::vector<finding> out;
  if (!f.cluster) return out;
  for (const auto& s : gpubench::cluster::find_suspects(f)) {
    const bool node = s.kind == gpubench::cluster::suspect_kind::node;
    const std::string subject = node ? "node " + s.node : "link " + s.node + "<->" + s.peer;
    std::string evidence = s.evidence;
    if (evidence.empty())
      evidence = fmt::format("{}: {} against a cluster median of {}", s.benchmark,
                             figure(s.value, s.unit), figure(s.cluster_median, s.unit));
    if (!s.benchmark.empty() && s.check == gpubench::cluster::second_look::not_taken)
      evidence += " (one pass of measurements: not re-measured)";
    out.push_back(
        {"cluster.suspect", severity::problem, subject,
         node ? fmt::format("Node {} is slower than the rest of the cluster ({})", s.node,
                            s.benchmark)
              : fmt::format("The link between {} and {} is slower than the others ({})", s.node,
                            s.peer, s.benchmark),
         evidence,
         node ? "Check the node's NIC (link speed, errors: ethtool -S, ibstat), its PCIe link and "
                "NUMA placement, and its CPU load; re-run it alone against a good node"
              : "Check the cables, transceivers and switch ports on this path (error counters on "
                "both ends), then re-measure the pair"});
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings

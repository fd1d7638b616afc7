// Every rule over one run, problems first; a GPU whose slow host copies a degraded PCIe link
// already explains is not reported a second time as an outlier among its siblings.
#include <algorithm>
#include <set>

#include "reports/page_one/findings/finding.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

std::string to_string(severity s) {
  switch (s) {
    case severity::problem:
      return "problem";
    case severity::warning:
      return "warning";
    case severity::info:
      return "info";
  }
  return "info";
}

std::vector<finding> evaluate(const run_input& run, const rule_options& options) {
  using rule = std::vector<finding> (*)(const core::result_file&, const rule_options&);
  const rule rules[] = {pcie_link_rule,         remote_numa_rule,   peer_access_rule,
                        pair_outlier_rule,      host_outlier_rule,  cluster_suspect_rule,
                        allreduce_scaling_rule, single_stream_rule, mtu_rule,
                        rdma_vs_tcp_rule};
  std::vector<finding> all;
  for (const auto r : rules)
    for (auto& f : r(run.file, options))
      all.push_back(std::move(f));
  std::set<std::string> degraded;
  for (const auto& f : all)
    if (f.rule == "pcie.link_degraded") degraded.insert(f.subject.substr(0, f.subject.find(" (")));
  std::erase_if(all, [&](const finding& f) {
    return f.rule == "gpu.host_outlier" && degraded.contains(f.subject);
  });
  std::stable_sort(all.begin(), all.end(), [](const finding& a, const finding& b) {
    return static_cast<int>(a.level) < static_cast<int>(b.level);
  });
  return all;
}

}  // namespace gpubench::reports::page_one::findings

// The table of finding rules, one line each: the id its findings carry and the function its file
// (rules_*.cpp, whose first comment says what it finds) defines. evaluate() runs them in this
// order. Adding a rule: its file, its line here, its CMake source line.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "reports/page_one/findings/finding.hpp"

// X(id, function) for every rule. One list declares each function and builds the table, so a rule
// cannot be declared and forgotten, or listed and undeclared.
#define GPUBENCH_FINDING_RULES(X)                  \
  X("pcie.link_degraded", pcie_link_rule)          \
  X("gpu.remote_numa", remote_numa_rule)           \
  X("gpu.peer_unavailable", peer_access_rule)      \
  X("gpu.pair_outlier", pair_outlier_rule)         \
  X("gpu.host_outlier", host_outlier_rule)         \
  X("gpu.nvlink_across_hosts", nvlink_hosts_rule)  \
  X("cluster.suspect", cluster_suspect_rule)       \
  X("collective.scaling", collective_scaling_rule) \
  X("collective.busbw_falls", busbw_falls_rule)    \
  X("collective.busbw_collapse", collapse_rule)    \
  X("collective.log_average", log_average_rule)    \
  X("collective.no_gdr", no_gdr_rule)              \
  X("net.tcp_single_stream", single_stream_rule)   \
  X("net.mtu_small", mtu_rule)                     \
  X("net.tcp_retransmits", tcp_retransmits_rule)   \
  X("net.stream_held_back", stream_share_rule)     \
  X("net.rdma_vs_tcp", rdma_vs_tcp_rule)

namespace gpubench::reports::page_one::findings {

// A rule reads one parsed result file and returns its findings, in no particular order.
using rule_function = std::vector<finding> (*)(const core::result_file& f, const rule_options& o);

struct rule {
  std::string_view id;
  rule_function run;
};

#define GPUBENCH_DECLARE_FINDING_RULE(id, function) \
  std::vector<finding> function(const core::result_file& f, const rule_options& o);
GPUBENCH_FINDING_RULES(GPUBENCH_DECLARE_FINDING_RULE)
#undef GPUBENCH_DECLARE_FINDING_RULE

// Every rule, in the table's order.
std::span<const rule> all_rules();

}  // namespace gpubench::reports::page_one::findings

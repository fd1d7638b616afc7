// The finding rules, one idea each (docs/report.md, "Findings"): each reads one parsed result
// file and returns its findings, in no particular severity order; evaluate() orders them.
#pragma once

#include <vector>

#include "core/result.hpp"
#include "reports/findings/finding.hpp"

namespace gpubench::reports::findings {

// pcie.link_degraded: host<->GPU far below the capable line rate, link trained below capable.
std::vector<finding> pcie_link_rule(const core::result_file& f, const rule_options& o);
// gpu.remote_numa: a GPU's host copies from another NUMA node much slower than from its own.
std::vector<finding> remote_numa_rule(const core::result_file& f, const rule_options& o);
// gpu.peer_unavailable: GPU pairs without peer access, copies staged through host memory.
std::vector<finding> peer_access_rule(const core::result_file& f, const rule_options& o);
// gpu.pair_outlier: one GPU pair (or one GPU in all its pairs) much slower than its siblings.
std::vector<finding> pair_outlier_rule(const core::result_file& f, const rule_options& o);
// gpu.host_outlier: one GPU's host copies much slower than its siblings'.
std::vector<finding> host_outlier_rule(const core::result_file& f, const rule_options& o);
// net.rdma_vs_tcp: latency ratio, bandwidth and CPU cost in like completion modes.
std::vector<finding> rdma_vs_tcp_rule(const core::result_file& f, const rule_options& o);
// net.tcp_single_stream: one TCP stream far below line rate where several streams reach it.
std::vector<finding> single_stream_rule(const core::result_file& f, const rule_options& o);
// net.mtu_small: a fast Ethernet link or RoCE path carrying 1500-byte frames.
std::vector<finding> mtu_rule(const core::result_file& f, const rule_options& o);
// allreduce.scaling: bus bandwidth per node count against the first multi-node count.
std::vector<finding> allreduce_scaling_rule(const core::result_file& f, const rule_options& o);
// cluster.suspect: each slow node or link that the cluster verdict (cluster/) names.
std::vector<finding> cluster_suspect_rule(const core::result_file& f, const rule_options& o);

}  // namespace gpubench::reports::findings

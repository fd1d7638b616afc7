#include "cluster/cluster_work.hpp"

#include <gtest/gtest.h>

#include "core/benchmark.hpp"
#include "core/kind.hpp"

namespace gpubench::cluster {
namespace {

core::benchmark_def pair_def(const char* id, bool latency, double timeout) {
  core::benchmark_def d;
  d.id = id;
  d.kind = core::network_kind("tcp", {"peer"});
  d.metric = latency ? core::latency_metric() : core::bandwidth_metric();
  d.criteria.timeout = timeout;
  return d;
}

TEST(ClusterWork, APairRoundBudgetsBandwidthBothWays) {
  const auto latency = pair_def("net.tcp.latency", true, 0.5);
  const auto bandwidth = pair_def("net.tcp.bandwidth", false, 0.4);
  const auto work = split_work({&latency, &bandwidth});
  ASSERT_EQ(work.pairs.size(), 2u);
  core::run_context ctx;
  // 8 B: latency once; 1 MiB: bandwidth each way; 4 MiB: bandwidth each way again.
  const auto b = work_budgets(work, ctx, {8, 1u << 20, 4u << 20}, 7);
  EXPECT_DOUBLE_EQ(b.round_s, 0.5 + 2 * 0.4 + 2 * 0.4);
  EXPECT_EQ(b.rounds, 7u);
  // Bandwidth only (--pair-sizes 1M): no latency point.
  EXPECT_DOUBLE_EQ(work_budgets(work, ctx, {1u << 20}, 3).round_s, 2 * 0.4);
}

}  // namespace
}  // namespace gpubench::cluster

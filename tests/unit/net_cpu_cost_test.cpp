// A network point's CPU cost: the threads' own time and each end's whole machine, counted
// once when both ends are one kernel, and nothing invented for a peer that sent no machine.
#include <gtest/gtest.h>

#include "benchmarks/network/cpu_cost.hpp"

namespace gpubench::benchmarks::network {
namespace {

using core::machine_cpu;

transports::control::point_cost cost_of(const std::string& client_kernel,
                                        const std::string& server_kernel) {
  transports::control::point_cost c;
  c.client.bytes = 2'000'000'000;  // 2 GB
  c.client.messages = 1000;
  c.client.cpu = {0.25, 0.25};  // the sending thread: 0.5 s
  c.server.cpu = {0.125, 0.375};
  c.client.machine_cpu_time = machine_cpu{0.5, 1.0, 0.0, 0.5, 6.0};  // 2 s, softirq among it
  c.client.machine = client_kernel;
  c.server.machine_cpu_time = machine_cpu{0.25, 0.75, 0.25, 0.75, 2.0};  // 2 s
  c.server.machine = server_kernel;
  return c;
}

double extra(const core::point_result& p, const std::string& key) {
  return p.extra.at(key).get<double>();
}

TEST(NetCpuCost, TwoMachinesAddUp) {
  core::point_result p;
  add_cpu_costs(p, cost_of("kernel-a", "kernel-b"));
  EXPECT_DOUBLE_EQ(extra(p, "cpu_seconds_per_gb"), 0.5);  // (0.5 + 0.5) s / 2 GB
  EXPECT_DOUBLE_EQ(extra(p, "thread_cpu_system_server"), 0.375);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_softirq_client"), 0.5);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_irq_server"), 0.25);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_seconds_per_gb_client"), 1.0);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_seconds_per_gb_server"), 1.0);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_busy_client"), 0.25);  // 2 s of work in 8 s
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_busy_server"), 0.5);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_same_host"), 0);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_seconds_per_gb"), 2.0);  // (2 + 2) s / 2 GB
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_seconds_per_message"), 0.004);
}

// Namespaces or loopback: one /proc/stat read at both ends is one machine, counted once (the
// client's interval, which spans the server's), not twice.
TEST(NetCpuCost, OneMachineCountsOnce) {
  core::point_result p;
  add_cpu_costs(p, cost_of("kernel-a", "kernel-a"));
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_same_host"), 1);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_seconds_per_gb"), 1.0);
  EXPECT_DOUBLE_EQ(extra(p, "machine_cpu_seconds_per_gb_server"), 1.0);  // still shown per end
}

// A server older than whole-machine accounting: its thread time counts, the client's machine
// is shown for the client alone, and no both-ends figure is made up from half of it.
TEST(NetCpuCost, AnOldPeerGivesNoBothEndsFigure) {
  auto c = cost_of("kernel-a", "");
  c.server.machine_cpu_time.reset();
  core::point_result p;
  add_cpu_costs(p, c);
  EXPECT_TRUE(p.extra.contains("cpu_seconds_per_gb"));
  EXPECT_TRUE(p.extra.contains("machine_cpu_seconds_per_gb_client"));
  EXPECT_FALSE(p.extra.contains("machine_cpu_user_server"));
  EXPECT_FALSE(p.extra.contains("machine_cpu_seconds_per_gb"));
  EXPECT_FALSE(p.extra.contains("machine_cpu_same_host"));
}

TEST(NetCpuCost, NothingMovedNothingWritten) {
  auto c = cost_of("kernel-a", "kernel-a");
  c.client.bytes = 0;
  core::point_result p;
  add_cpu_costs(p, c);
  EXPECT_TRUE(p.extra.empty());
}

}  // namespace
}  // namespace gpubench::benchmarks::network

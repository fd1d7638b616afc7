// The report's CPU cost comparison of TCP against RDMA: only between like completion modes.
#include <gtest/gtest.h>

#include <cmath>

#include "reports/model/cpu_cost.hpp"
#include "reports/views/cpu_cost_view.hpp"

namespace gpubench::reports::views {
namespace {

using namespace model;

core::case_result net_case(const std::string& id, nlohmann::json params, double cost,
                           const std::string& mode = "", double machine_cost = -1) {
  core::case_result c;
  c.benchmark = id;
  c.kind = core::kind_of_format_1_0(id);  // what the benchmark of this id declares
  c.params = std::move(params);
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  if (!mode.empty()) c.context["completion_mode"] = mode;
  core::point_result p;
  p.bytes = 65536;
  p.extra["cpu_seconds_per_gb"] = cost;
  if (machine_cost >= 0) p.extra["machine_cpu_seconds_per_gb"] = machine_cost;
  c.points.push_back(p);
  return c;
}

std::vector<case_ref> refs_of(const std::vector<core::case_result>& cs, const run_input& run) {
  std::vector<case_ref> out;
  for (const auto& c : cs)
    out.push_back({&run, &c, c.benchmark + " " + completion_mode_of(c)});
  return out;
}

TEST(ReportCpuCost, ModesOfOldAndNewResults) {
  EXPECT_EQ(completion_mode_of(net_case("net.rdma.bandwidth", {}, 1)), "poll");
  EXPECT_EQ(completion_mode_of(net_case("net.rdma.bandwidth", {{"completion", "event"}}, 1)),
            "event");
  EXPECT_EQ(completion_mode_of(net_case("net.tcp.latency", {}, 1)), "blocking");
  EXPECT_EQ(completion_mode_of(net_case("net.tcp.latency", {{"busy_poll", true}}, 1)), "busy-poll");
  EXPECT_EQ(completion_mode_of(net_case("net.tcp.latency", {}, 1, "busy-poll")), "busy-poll");
  EXPECT_EQ(wait_class_of("poll"), wait_class_of("busy-poll"));
  EXPECT_EQ(wait_class_of("event"), wait_class_of("blocking"));
  EXPECT_NE(wait_class_of("poll"), wait_class_of("blocking"));
}

TEST(ReportCpuCost, BlockingTcpIsNeverSetAgainstPollingRdma) {
  const run_input run;
  // Blocking TCP and polling RDMA: the old report put 0.6 s/GB beside RDMA's busy core.
  std::vector<core::case_result> cs{
      net_case("net.tcp.bandwidth", {{"direction", "to_peer"}}, 0.6, "blocking"),
      net_case("net.rdma.bandwidth", {{"op", "write"}}, 0.9, "poll")};
  std::vector<std::string> notes;
  auto t = cpu_cost_table(refs_of(cs, run), notes);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_EQ(notes.size(), 2u);  // each says what it would need

  // An event-driven RDMA case pairs with the blocking TCP case, and only with it.
  cs.push_back(
      net_case("net.rdma.bandwidth", {{"op", "write"}, {"completion", "event"}}, 0.05, "event"));
  notes.clear();
  t = cpu_cost_table(refs_of(cs, run), notes);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_NE(t.rows[0][0].find("sleeping"), std::string::npos);
  EXPECT_EQ(t.rows[0][4], "net.rdma.bandwidth event");
  EXPECT_EQ(t.rows[0][6], "12.00x");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("net.rdma.bandwidth poll"), std::string::npos) << notes[0];
}

TEST(ReportCpuCost, OnlyOneRunsCasesOfOneDirectionAreSetSideBySide) {
  const run_input run, other_run;
  const std::vector<core::case_result> cs{
      net_case("net.tcp.bandwidth", {{"direction", "to_peer"}}, 0.6, "blocking"),
      net_case("net.tcp.bandwidth", {{"direction", "bidir"}}, 0.7, "blocking"),
      net_case("net.rdma.bandwidth", {{"op", "write"}, {"direction", "bidir"}}, 0.1, "event")};
  std::vector<case_ref> refs = refs_of(cs, run);
  std::vector<std::string> notes;
  auto t = cpu_cost_table(refs, notes);
  ASSERT_EQ(t.rows.size(), 1u);  // bidir against bidir, not to_peer against bidir
  EXPECT_EQ(t.rows[0][3], "0.7");
  refs[2].run = &other_run;  // the RDMA case from another run: nothing compares
  notes.clear();
  t = cpu_cost_table(refs, notes);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_EQ(notes.size(), 3u);
}

// TCP's receive work in softirq on other cores is in the whole machine's figure, not in its
// thread's: the table sets the machine figures side by side when both cases have them, and
// falls back to both threads' own (never one of each) when one lacks it.
TEST(ReportCpuCost, WholeMachineFiguresWhenBothHaveThem) {
  const run_input run;
  std::vector<core::case_result> cs{
      net_case("net.tcp.bandwidth", {{"direction", "to_peer"}}, 0.2, "blocking", 0.8),
      net_case("net.rdma.bandwidth", {{"op", "write"}, {"direction", "to_peer"}}, 0.05, "event",
               0.1)};
  std::vector<std::string> notes;
  auto t = cpu_cost_table(refs_of(cs, run), notes);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][3], "0.8");
  EXPECT_EQ(t.rows[0][5], "0.1");
  EXPECT_EQ(t.rows[0][6], "8.00x");
  EXPECT_EQ(t.rows[0][7], to_string(cpu_basis::whole_machine));

  cs[1].points[0].extra.erase("machine_cpu_seconds_per_gb");  // e.g. an old server
  t = cpu_cost_table(refs_of(cs, run), notes);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][3], "0.2");
  EXPECT_EQ(t.rows[0][5], "0.05");
  EXPECT_EQ(t.rows[0][7], to_string(cpu_basis::threads));
}

TEST(ReportCpuCost, APointsCostPrefersTheWholeMachine) {
  core::point_result p;
  EXPECT_TRUE(std::isnan(cpu_cost_of(p).seconds_per_gb));
  p.extra["cpu_seconds_per_gb"] = 0.3;
  EXPECT_EQ(cpu_cost_of(p).basis, cpu_basis::threads);
  EXPECT_DOUBLE_EQ(cpu_cost_of(p).seconds_per_gb, 0.3);
  p.extra["machine_cpu_seconds_per_gb"] = 0.9;
  EXPECT_EQ(cpu_cost_of(p).basis, cpu_basis::whole_machine);
  EXPECT_DOUBLE_EQ(cpu_cost_of(p).seconds_per_gb, 0.9);
  EXPECT_DOUBLE_EQ(cpu_cost_of(p, cpu_basis::threads).seconds_per_gb, 0.3);
}

}  // namespace
}  // namespace gpubench::reports::views

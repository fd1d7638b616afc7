// Whole-machine CPU time from /proc/stat: the parser, its JSON, and this machine's counters.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/system/machine_cpu.hpp"

namespace gpubench::core {
namespace {

TEST(MachineCpu, ParsesTheFirstLineOfProcStat) {
  // user nice system idle iowait irq softirq steal guest guest_nice, at USER_HZ 100.
  const auto m = parse_proc_stat("cpu  1661164 9326 342841 416731 7704 12 20906 1688 0 0", 100);
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->user, 16611.64 + 93.26);  // nice is user time
  EXPECT_DOUBLE_EQ(m->system, 3428.41);
  EXPECT_DOUBLE_EQ(m->irq, 0.12);
  EXPECT_DOUBLE_EQ(m->softirq, 209.06);
  EXPECT_DOUBLE_EQ(m->idle, 4167.31 + 77.04 + 16.88);  // idle, iowait, steal
  // Idle, iowait and steal are not work of this machine's.
  EXPECT_DOUBLE_EQ(m->total(), 16611.64 + 93.26 + 3428.41 + 0.12 + 209.06);
  // A kernel with only the seven oldest fields still counts.
  EXPECT_TRUE(parse_proc_stat("cpu 1 2 3 4 5 6 7", 100));
}

TEST(MachineCpu, RefusesWhatIsNotTheMachineLine) {
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8", 100));  // one core, not the machine
  EXPECT_FALSE(parse_proc_stat("cpu 1 2 3 4 5 6", 100));       // no softirq field
  EXPECT_FALSE(parse_proc_stat("cpu 1 2 x 4 5 6 7", 100));
  EXPECT_FALSE(parse_proc_stat("cpu 1 2 -3 4 5 6 7", 100));
  EXPECT_FALSE(parse_proc_stat("intr 1 2 3 4 5 6 7", 100));
  EXPECT_FALSE(parse_proc_stat("", 100));
  EXPECT_FALSE(parse_proc_stat("cpu 1 2 3 4 5 6 7", 0));
}

TEST(MachineCpu, DifferenceAndJson) {
  const machine_cpu a{3, 2, 1, 4, 10}, b{1, 1, 0.5, 1, 6.5};
  const auto d = a - b;
  EXPECT_DOUBLE_EQ(d.softirq, 3);
  EXPECT_DOUBLE_EQ(d.total(), 6.5);
  EXPECT_DOUBLE_EQ(d.idle, 3.5);
  EXPECT_DOUBLE_EQ(d.busy_fraction(), 0.65);  // 6.5 s of work in 10 s of the cores' time
  EXPECT_TRUE(std::isnan(machine_cpu{}.busy_fraction()));
  const auto back = machine_cpu_from_json(to_json(d));
  EXPECT_DOUBLE_EQ(back.user, 2);
  EXPECT_DOUBLE_EQ(back.irq, 0.5);
  EXPECT_DOUBLE_EQ(back.idle, 3.5);
  auto j = to_json(d);
  j["softirq"] = -1;
  EXPECT_THROW(machine_cpu_from_json(j), std::runtime_error);
  j = to_json(d);
  j.erase("irq");
  EXPECT_THROW(machine_cpu_from_json(j), std::runtime_error);
  j = to_json(d);
  j["user"] = "1";
  EXPECT_THROW(machine_cpu_from_json(j), std::runtime_error);
}

TEST(MachineCpu, ThisMachineCountsAnInterval) {
  if (!std::filesystem::exists("/proc/stat")) GTEST_SKIP() << "no /proc/stat on this system";
  const auto now = read_machine_cpu();
  ASSERT_TRUE(now);
  EXPECT_GT(now->total(), 0);
  EXPECT_FALSE(machine_id().empty());
  const machine_cpu_interval interval;
  const auto spent = interval.elapsed();
  ASSERT_TRUE(spent);
  EXPECT_GE(spent->user, 0);
  EXPECT_GE(spent->softirq, 0);
}

}  // namespace
}  // namespace gpubench::core

// The decisions of the GPU copy jobs that need no GPU: which GPU fills, checks and issues
// each buffer's copies, where kernels are loaded, peer access all or nothing, NVLink links
// through NVSwitches, per-direction bidirectional rates, NUMA placement and launch refusals.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/gpu/bidir_rates.hpp"
#include "benchmarks/gpu/copy_plan.hpp"
#include "benchmarks/gpu/launch_checks.hpp"
#include "benchmarks/gpu/nvlink_count.hpp"
#include "benchmarks/gpu/peer_enable.hpp"

namespace gpubench::benchmarks::gpu {
namespace {

TEST(GpuCopyPlan, EachBufferIsFilledAndCheckedByItsOwnGpu) {
  for (const bool read : {false, true}) {
    const flow_plan p = plan_flow(2, 5, read);
    EXPECT_EQ(p.fill_src_on, 2) << "read=" << read;
    EXPECT_EQ(p.fill_dst_on, 5) << "read=" << read;
    EXPECT_EQ(p.check_on, 5) << "read=" << read;
  }
  EXPECT_EQ(plan_flow(2, 5, false).exec, 2);  // the writer pushes
  EXPECT_EQ(plan_flow(2, 5, true).exec, 5);   // the reader pulls
}

TEST(GpuCopyPlan, KernelsLoadOnlyOnTheJobsDevices) {
  EXPECT_EQ(job_devices({3, 1, 3}), (std::vector<int>{1, 3}));
  EXPECT_EQ(job_devices({0}), (std::vector<int>{0}));
}

struct fake_peers {
  std::vector<std::pair<int, int>> on;
  std::pair<int, int> failing{-1, -1};
  peer_ops ops() {
    return {[this](int from, int to) {
              if (std::pair{from, to} == failing) throw std::runtime_error("enable failed");
              on.emplace_back(from, to);
              return true;
            },
            [this](int from, int to) {
              std::erase(on, std::pair{from, to});
            }};
  }
};

TEST(GpuPeerAccess, EnablesBothWays) {
  fake_peers f;
  const auto enabled = enable_both_ways(0, 1, f.ops());
  EXPECT_EQ(enabled, (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(f.on.size(), 2u);
}

TEST(GpuPeerAccess, RollsBackTheFirstWayWhenTheSecondFails) {
  fake_peers f;
  f.failing = {1, 0};
  EXPECT_THROW(enable_both_ways(0, 1, f.ops()), std::runtime_error);
  EXPECT_TRUE(f.on.empty()) << "0 -> 1 stayed enabled after 1 -> 0 failed";
}

TEST(GpuPeerAccess, LeavesAccessItDidNotTurnOnAlone) {
  std::vector<std::pair<int, int>> disabled;
  const peer_ops ops{[](int from, int) { return from == 1; },  // 0 -> 1 was already on
                     [&](int from, int to) { disabled.emplace_back(from, to); }};
  EXPECT_EQ(enable_both_ways(0, 1, ops), (std::vector<std::pair<int, int>>{{1, 0}}));
  EXPECT_TRUE(disabled.empty());
}

const std::vector<std::string> eight_gpus = {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0",
                                             "0000:5d:00.0", "0000:9a:00.0", "0000:ab:00.0",
                                             "0000:ba:00.0", "0000:db:00.0"};

// An H100 SXM on NVSwitches: 18 active links, all to switches, 36 link slots.
std::vector<nvlink_end> switched(nvlink_remote type) {
  std::vector<nvlink_end> links(nvlink_max_links);
  for (unsigned i = 0; i < 18; ++i)
    links[i] = {true, type, "0000:0" + std::to_string(i % 4 + 5) + ":00.0"};
  return links;
}

TEST(GpuNvlinkCount, SwitchLinksCountWhenNvmlNamesTheSwitch) {
  const auto l = switched(nvlink_remote::nvswitch);
  EXPECT_EQ(nvlink_links_between(l, eight_gpus[0], l, eight_gpus[1], eight_gpus), 18);
}

TEST(GpuNvlinkCount, SwitchLinksCountWhenTheRemoteTypeIsUnknown) {
  const auto l = switched(nvlink_remote::unknown);
  EXPECT_EQ(nvlink_links_between(l, eight_gpus[0], l, eight_gpus[1], eight_gpus), 18);
}

TEST(GpuNvlinkCount, LinksPastEighteenCount) {
  std::vector<nvlink_end> a(nvlink_max_links), b(nvlink_max_links);
  for (unsigned i = 20; i < nvlink_max_links; ++i) {
    a[i] = {true, nvlink_remote::unknown, eight_gpus[1]};
    b[i] = {true, nvlink_remote::unknown, eight_gpus[0]};
  }
  EXPECT_EQ(nvlink_links_between(a, eight_gpus[0], b, eight_gpus[1], eight_gpus), 16);
}

TEST(GpuNvlinkCount, DirectLinksToAThirdGpuDoNotCount) {
  // A hybrid cube mesh: GPU 0 has 2 links to GPU 1 and 4 to GPU 2, none to a switch.
  std::vector<nvlink_end> a, b;
  for (int i = 0; i < 2; ++i)
    a.push_back({true, nvlink_remote::unknown, eight_gpus[1]});
  for (int i = 0; i < 4; ++i)
    a.push_back({true, nvlink_remote::gpu, eight_gpus[2]});
  a.push_back({false, nvlink_remote::unknown, eight_gpus[1]});  // inactive
  for (int i = 0; i < 2; ++i)
    b.push_back({true, nvlink_remote::unknown, eight_gpus[0]});
  for (int i = 0; i < 4; ++i)
    b.push_back({true, nvlink_remote::unknown, eight_gpus[3]});
  EXPECT_EQ(nvlink_links_between(a, eight_gpus[0], b, eight_gpus[1], eight_gpus), 2);
}

TEST(GpuNvlinkCount, SwitchLinksNeedBothEnds) {
  const auto a = switched(nvlink_remote::nvswitch);
  const std::vector<nvlink_end> b(nvlink_max_links);  // no active link
  EXPECT_EQ(nvlink_links_between(a, eight_gpus[0], b, eight_gpus[1], eight_gpus), 0);
}

TEST(GpuBidirRates, ReportsEachDirectionAndTheSum) {
  // 1 GB in 0.04 s one way (25 GB/s), 1 GB in 0.05 s the other (20 GB/s).
  const bidir_rates r = split_rates(1e9, 0.04, 1e9, 0.05);
  EXPECT_DOUBLE_EQ(r.first_gbps, 25.0);
  EXPECT_DOUBLE_EQ(r.second_gbps, 20.0);
  EXPECT_DOUBLE_EQ(r.sum_gbps, 45.0);
  // The runner divides both directions' bytes by this: it must give the sum, not the
  // 2 GB / 0.05 s = 40 GB/s that one interval around both would.
  EXPECT_DOUBLE_EQ(2e9 / r.effective_seconds * 1e-9, 45.0);
  EXPECT_THROW(split_rates(1e9, 0.0, 1e9, 0.05), std::runtime_error);
}

TEST(GpuLaunchChecks, RefusesLatchedCasesUnderCudaLaunchBlocking) {
  EXPECT_FALSE(latch_refusal(nullptr));
  EXPECT_FALSE(latch_refusal("0"));
  EXPECT_FALSE(latch_refusal(""));
  const auto why = latch_refusal("1");
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("CUDA_LAUNCH_BLOCKING=1"), std::string::npos);
  EXPECT_NE(why->find("unset"), std::string::npos);
}

TEST(GpuLaunchChecks, HostMemoryMustSitOnOneNode) {
  EXPECT_EQ(placement_problem(1u, {1}), "");
  EXPECT_EQ(placement_problem(std::nullopt, {0}), "");
  EXPECT_EQ(placement_problem(1u, {}), "");  // the kernel could not say
  EXPECT_NE(placement_problem(1u, {0}), "");
  const std::string spread = placement_problem(1u, {0, 1});
  EXPECT_NE(spread.find("spread over NUMA nodes 0, 1"), std::string::npos) << spread;
  EXPECT_EQ(placement_problem(std::nullopt, {0, 1}), "");  // the default policy may spread
}

}  // namespace
}  // namespace gpubench::benchmarks::gpu

namespace gpubench::benchmarks::gpu {
namespace {

TEST(GpuBidirRates, DirectionMediansLeaveTheWarmupOut) {
  std::vector<bidir_rates> s = {split_rates(1e9, 1.0, 1e9, 1.0)};  // warm-up: 1 GB/s each
  for (const double t : {0.04, 0.05, 0.04})
    s.push_back(split_rates(1e9, t, 1e9, 0.1));
  const auto [first, second] = direction_medians(s, 1);
  EXPECT_DOUBLE_EQ(first, 25.0);
  EXPECT_DOUBLE_EQ(second, 10.0);
  EXPECT_THROW(direction_medians(s, 4), std::logic_error);
}

}  // namespace
}  // namespace gpubench::benchmarks::gpu

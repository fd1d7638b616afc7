// Time as part of a measurement's design: a point that its time limit cut short of the
// stopping rule's minimum says so, a longer point limit lets slow samples reach it, and the
// collectives' sweep ends where the curve is bandwidth-bound (benchmarks/collectives/
// sweep_guard.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "benchmarks/collectives/sweep_guard.hpp"
#include "core/case_state.hpp"
#include "core/progress.hpp"
#include "core/runner.hpp"

using namespace gpubench;

namespace {

// One point of samples that each sleep `sample_ms`, under a 60 ms point timeout and a minimum
// of 5 samples; `limit_s` is the point's own limit (0: none).
core::case_result slow_point(int sample_ms, double limit_s, double point_timeout = 0) {
  core::benchmark_def d;
  d.id = "t.slow";
  d.kind = core::host_memory_kind({});
  d.suites = {"memory"};
  d.metric = core::bandwidth_metric();
  d.sizes = {1024, 1024, 1024};
  d.criteria.min_samples = 5;
  d.criteria.min_time = 0;
  d.criteria.max_noise = 1;  // any spread is fine once there are enough samples
  d.criteria.timeout = 0.06;
  d.criteria.warmup_samples = 0;
  d.body = [=](core::case_state& s) {
    core::sample_spec spec;
    spec.bytes = 1e6;
    spec.point_limit_s = limit_s;
    s.measure_timed(1024, spec, [=] {
      std::this_thread::sleep_for(std::chrono::milliseconds(sample_ms));
      return sample_ms / 1000.0;
    });
  };
  core::run_context ctx;
  ctx.point_timeout = point_timeout;
  core::result_file f;
  core::runner(ctx, {}).run({&d}, f);
  return f.results.at(0);
}

}  // namespace

TEST(Sweep, PointTimeoutCapsAPointBelowItsOwnLimit) {
  // The point's own limit (2 s) would let it take 5 samples of 25 ms; --point-timeout 0.03
  // stops it after the first two, and never raises a limit (0.03 against 0.06).
  const auto capped = slow_point(25, 2.0, 0.03);
  EXPECT_EQ(capped.points.at(0).stopped_by, "timeout");
  EXPECT_LE(capped.points.at(0).samples.size(), 2u);
  EXPECT_EQ(slow_point(25, 2.0).points.at(0).samples.size(), 5u);
  EXPECT_LT(slow_point(25, 0, 10).points.at(0).samples.size(), 5u) << "a cap, not a longer limit";
}

TEST(Sweep, APointCutShortOfTheMinimumSaysHowManyTheRuleAsked) {
  const auto c = slow_point(25, 0);
  ASSERT_EQ(c.points.size(), 1u);
  const auto& p = c.points[0];
  EXPECT_LT(p.samples.size(), 5u);
  EXPECT_EQ(p.stopped_by, "timeout");
  ASSERT_TRUE(p.extra.contains("min_samples"));
  EXPECT_EQ(p.extra["min_samples"].get<int>(), 5);
}

TEST(Sweep, ALongerPointLimitReachesTheMinimum) {
  const auto c = slow_point(25, 1.0);
  const auto& p = c.points.at(0);
  EXPECT_GE(p.samples.size(), 5u);
  EXPECT_FALSE(p.extra.contains("min_samples"));
}

TEST(Sweep, BandwidthBoundAfterTwoFlatDoublingsOfLargeMessages) {
  namespace coll = benchmarks::collectives;
  constexpr std::uint64_t mib = 1 << 20;
  EXPECT_FALSE(coll::bandwidth_bound({1, 2}, 4 * mib));
  EXPECT_FALSE(coll::bandwidth_bound({1, 2, 4}, 4 * mib)) << "latency-bound: doubling per doubling";
  EXPECT_FALSE(coll::bandwidth_bound({8, 10, 10.5}, 4 * mib)) << "the first doubling gained 25 %";
  EXPECT_TRUE(coll::bandwidth_bound({1, 2, 4, 9.5, 10, 10.4}, 4 * mib));
  EXPECT_TRUE(coll::bandwidth_bound({10, 9.5, 9.8}, mib)) << "a dip is no gain";
  EXPECT_FALSE(coll::bandwidth_bound({0, 0, 0}, 4 * mib)) << "nothing measured is no plateau";
  // Small messages whose times jitter on a loaded host look flat: never an end.
  EXPECT_FALSE(coll::bandwidth_bound({0.001, 0.0011, 0.0010}, 64));
  EXPECT_FALSE(coll::bandwidth_bound({5, 5.1, 5.2}, 512 * 1024));
}

TEST(Sweep, PointLimitSharesTheBudgetYetFitsTheMinimum) {
  namespace coll = benchmarks::collectives;
  // No budget: the criteria's timeout, or longer when 5 samples of 2 s need it.
  EXPECT_DOUBLE_EQ(coll::point_limit_s(0.001, 5, 1.0, 0, 10), 1.0);
  EXPECT_DOUBLE_EQ(coll::point_limit_s(2.0, 5, 1.0, 0, 10), 12.5);
  // 8 s left over 20 sizes: a fast point may use its 0.4 s share, never the 1 s timeout.
  EXPECT_DOUBLE_EQ(coll::point_limit_s(0.001, 5, 1.0, 8.0, 20), 0.4);
  // 600 s over 28 sizes: the timeout, not the 21 s share.
  EXPECT_DOUBLE_EQ(coll::point_limit_s(0.001, 5, 1.0, 600, 28), 1.0);
  // A slow point gets what its minimum needs beyond its share, within what is left.
  EXPECT_DOUBLE_EQ(coll::point_limit_s(0.5, 5, 1.0, 8.0, 4), 3.125);
  EXPECT_DOUBLE_EQ(coll::point_limit_s(2.0, 5, 1.0, 7.0, 2), 7.0);
}

TEST(Sweep, CaseBudgetOfItsOwnAndQuick) {
  core::benchmark_def d;
  d.sizes = {8, 1 << 20, 1 << 10};
  d.criteria.timeout = 1;
  d.criteria.case_budget = 600;
  d.criteria.quick_case_budget = 8;
  core::run_context ctx;
  EXPECT_DOUBLE_EQ(core::case_time_budget_s(d, ctx), 600);
  EXPECT_DOUBLE_EQ(core::case_budget_s(d, ctx), 18) << "18 sizes of 1 s, under the 600 s";
  ctx.quick = true;
  EXPECT_DOUBLE_EQ(core::case_time_budget_s(d, ctx), 8);
  EXPECT_DOUBLE_EQ(core::case_budget_s(d, ctx), 8) << "the quick budget, under 18 sizes of 1 s";
}

// The gate against a series: Student's t against published quantiles, and each outcome of a
// new point judged against a segment.
#include "history/gate.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace gpubench::history {
namespace {

TEST(student_t, MatchesPublishedQuantiles) {
  // Two-sided 5 % and 1 % points of t with 10 and 4 degrees of freedom, and the normal's.
  EXPECT_NEAR(student_t_two_sided(2.228, 10), 0.05, 2e-4);
  EXPECT_NEAR(student_t_two_sided(3.169, 10), 0.01, 1e-4);
  EXPECT_NEAR(student_t_two_sided(-2.776, 4), 0.05, 2e-4);
  EXPECT_NEAR(student_t_two_sided(1.960, 1e6), 0.05, 2e-4);
  EXPECT_DOUBLE_EQ(student_t_two_sided(0, 5), 1);
}

const std::vector<double> segment = {100, 101, 99, 100.5, 99.5, 100, 100.2, 99.8};

TEST(judge_point, WithinTheThresholdIsTheSame) {
  const auto j = judge_point(segment, 103, true, {});
  EXPECT_EQ(j.outcome, gate_outcome::same);
  EXPECT_EQ(j.history, segment.size());
  EXPECT_DOUBLE_EQ(*j.median, 100);
  EXPECT_NEAR(*j.change, 0.03, 1e-12);
}

TEST(judge_point, BeyondItAndSignificantIsWorseOrBetter) {
  EXPECT_EQ(judge_point(segment, 90, true, {}).outcome, gate_outcome::worse);
  EXPECT_EQ(judge_point(segment, 110, true, {}).outcome, gate_outcome::better);
  // Lower is better (latency): a rise is worse.
  const auto j = judge_point(segment, 110, false, {});
  EXPECT_EQ(j.outcome, gate_outcome::worse);
  EXPECT_NEAR(*j.change, -0.10, 1e-12);
  EXPECT_LT(*j.p, 0.001);
}

TEST(judge_point, WithinTheSeriesOwnSpreadIsNoisy) {
  const std::vector<double> wild = {100, 120, 80, 110, 90, 105, 95};
  const auto j = judge_point(wild, 92, true, {});
  EXPECT_EQ(j.outcome, gate_outcome::noisy);
  EXPECT_GT(*j.p, 0.05);
}

TEST(judge_point, SaysWhenHistoryIsShortOrMissing) {
  EXPECT_EQ(judge_point({}, 50, true, {}).outcome, gate_outcome::no_history);
  const std::vector<double> three = {100, 100, 100};
  const auto j = judge_point(three, 50, true, {});
  EXPECT_EQ(j.outcome, gate_outcome::too_short);
  EXPECT_EQ(j.history, 3u);
  EXPECT_NEAR(*j.change, -0.5, 1e-12);
  gate_options lenient;
  lenient.min_history = 3;
  EXPECT_EQ(judge_point(three, 50, true, lenient).outcome, gate_outcome::worse);
}

}  // namespace
}  // namespace gpubench::history

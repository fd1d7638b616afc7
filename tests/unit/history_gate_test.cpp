// The gate against a series: each outcome of a new point judged against a segment, and the
// prediction test's p.
#include "history/gate.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace gpubench::history {
namespace {

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

TEST(prediction_p, IsTheTwoSidedTailOfANewObservation) {
  // Mean 100, s = 1 over 5 values: t = 2.776 * sqrt(1 + 1/5) away is the 5 % point of t(4).
  const std::vector<double> five = {99, 101, 100, 99, 101};
  EXPECT_NEAR(prediction_p(five, 100 + 2.776 * std::sqrt(1.2)), 0.05, 2e-4);
  EXPECT_DOUBLE_EQ(prediction_p(five, 100), 1);
  const std::vector<double> flat = {5, 5, 5};
  EXPECT_DOUBLE_EQ(prediction_p(flat, 5), 1);
  EXPECT_DOUBLE_EQ(prediction_p(flat, 5.1), 0);
}

TEST(judge_point, OneDisturbedRunDoesNotHideAStep) {
  // One run of the history measured at a quarter (a loaded machine): unclipped, its spread
  // makes a 20 % drop look like noise.
  const std::vector<double> disturbed = {100, 101, 25, 99, 100.5, 99.5};
  gate_options unclipped;
  unclipped.clip = 0;
  EXPECT_EQ(judge_point(disturbed, 80, true, unclipped).outcome, gate_outcome::noisy);
  EXPECT_EQ(judge_point(disturbed, 80, true, {}).outcome, gate_outcome::worse);
  EXPECT_EQ(judge_point(disturbed, 99.8, true, {}).outcome, gate_outcome::same);
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

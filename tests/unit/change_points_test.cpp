// The pieces of the change-point method against what is known of them: the t distribution in
// closed form (1 and 2 degrees of freedom) and its tables, Benjamini and Hochberg's own worked
// example, and series whose changes are plain to see.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "core/errors.hpp"
#include "history/change_points.hpp"
#include "history/energy_split.hpp"
#include "history/t_test.hpp"

namespace gpubench::history {
namespace {

TEST(TDistribution, MatchesTheClosedFormsAndTheTables) {
  for (const double t : {0.1, 0.5, 1.0, 2.5, 10.0, 100.0}) {
    // One degree of freedom is Cauchy's distribution, two have P = 1 - t / sqrt(2 + t^2).
    EXPECT_NEAR(t_two_sided_p(t, 1), 1.0 - 2.0 / std::numbers::pi * std::atan(t), 1e-12) << t;
    EXPECT_NEAR(t_two_sided_p(-t, 2), 1.0 - t / std::sqrt(2.0 + t * t), 1e-12) << t;
  }
  // Two-sided critical values from the standard tables.
  EXPECT_NEAR(t_two_sided_p(2.228, 10), 0.05, 1e-4);
  EXPECT_NEAR(t_two_sided_p(3.169, 10), 0.01, 1e-4);
  EXPECT_NEAR(t_two_sided_p(4.587, 10), 0.001, 1e-5);
  EXPECT_NEAR(t_two_sided_p(2.042, 30), 0.05, 1e-4);
  EXPECT_NEAR(t_two_sided_p(1.95996, 1e7), 0.05, 1e-5);
  EXPECT_DOUBLE_EQ(t_two_sided_p(0.0, 5), 1.0);
  EXPECT_DOUBLE_EQ(t_two_sided_p(std::numeric_limits<double>::infinity(), 5), 0.0);
  EXPECT_THROW(t_two_sided_p(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(incomplete_beta(1.0, 1.0, 1.5), std::invalid_argument);
}

TEST(StudentTTest, PoolsTheVariance) {
  // Means 1 and 5, squares 2 + 2 over 2 degrees of freedom: t = 4 / sqrt(2) exactly.
  const std::vector<double> a{0, 2};
  const std::vector<double> b{4, 6};
  const auto r = student_t_test(a, b);
  EXPECT_DOUBLE_EQ(r.df, 2.0);
  EXPECT_NEAR(r.t, 4.0 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(r.p, 1.0 - r.t / std::sqrt(2.0 + r.t * r.t), 1e-12);
  // Without spread: the same level is no change, another level is certain.
  const std::vector<double> flat{3, 3, 3};
  const std::vector<double> higher{4, 4, 4};
  EXPECT_DOUBLE_EQ(student_t_test(flat, flat).p, 1.0);
  EXPECT_DOUBLE_EQ(student_t_test(flat, higher).p, 0.0);
  EXPECT_THROW(student_t_test(flat, {}), std::invalid_argument);
}

TEST(EnergySplit, FindsTheStepAndRespectsTheSides) {
  const std::vector<double> v{1, 1.1, 0.9, 1, 5, 5.1, 4.9};
  const auto split = best_energy_split(v, 0, v.size(), 2);
  ASSERT_TRUE(split);
  EXPECT_EQ(split->index, 4U);
  EXPECT_GT(split->q, 0.0);
  // Within a sub-range, indices stay absolute; too short a range has no split.
  const auto inner = best_energy_split(v, 1, 7, 2);
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->index, 4U);
  EXPECT_FALSE(best_energy_split(v, 0, 3, 2));
  // A step one observation from the end cannot be placed with three on each side.
  const std::vector<double> late{1, 1, 1, 1, 1, 1, 9};
  const auto edge = best_energy_split(late, 0, late.size(), 3);
  ASSERT_TRUE(edge);
  EXPECT_LE(edge->index, 4U);
}

// Q(t) by its definition, each sum summed afresh.
double energy_by_definition(const std::vector<double>& v, std::size_t begin, std::size_t t,
                            std::size_t end) {
  double across = 0, left = 0, right = 0;
  for (std::size_t i = begin; i < end; ++i) {
    for (std::size_t k = i + 1; k < end; ++k) {
      const double d = std::abs(v[i] - v[k]);
      if (k < t)
        left += d;
      else if (i >= t)
        right += d;
      else
        across += d;
    }
  }
  const auto m = static_cast<double>(t - begin);
  const auto n = static_cast<double>(end - t);
  return m * n / (m + n) *
         (2 * across / (m * n) - left / (m * (m - 1) / 2) - right / (n * (n - 1) / 2));
}

TEST(EnergySplit, AgreesWithTheDefinition) {
  std::mt19937_64 engine(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<double> v;
    for (int i = 0; i < 40; ++i)
      v.push_back(static_cast<double>(engine() % 1000) / 10.0);
    const std::size_t begin = static_cast<std::size_t>(round % 5);
    const std::size_t end = v.size() - static_cast<std::size_t>(round % 3);
    const auto split = best_energy_split(v, begin, end, 3);
    ASSERT_TRUE(split);
    double best = -1e300;
    std::size_t best_t = 0;
    for (std::size_t t = begin + 3; t + 3 <= end; ++t) {
      const double q = energy_by_definition(v, begin, t, end);
      if (q > best) {
        best = q;
        best_t = t;
      }
    }
    EXPECT_EQ(split->index, best_t) << round;
    EXPECT_NEAR(split->q, best, 1e-9 * std::abs(best)) << round;
  }
}

std::vector<double> wobble(std::vector<double> levels, std::size_t each, double noise) {
  // A deterministic ripple of +-noise, so that every segment has a spread.
  std::vector<double> v;
  for (const double level : levels) {
    for (std::size_t i = 0; i < each; ++i)
      v.push_back(level * (1.0 + noise * std::sin(1.7 * static_cast<double>(i))));
  }
  return v;
}

TEST(ChangePoints, FindsEachStepWithItsMedians) {
  const auto v = wobble({100, 110, 95}, 20, 0.005);
  const auto points = find_change_points(v, change_options{});
  ASSERT_EQ(points.size(), 2U);
  EXPECT_EQ(points[0].index, 20U);
  EXPECT_EQ(points[1].index, 40U);
  EXPECT_NEAR(points[0].before_median, 100.0, 0.5);
  EXPECT_NEAR(points[0].after_median, 110.0, 0.5);
  EXPECT_NEAR(points[0].change, 0.10, 0.01);
  EXPECT_NEAR(points[1].change, 95.0 / 110.0 - 1.0, 0.01);
  for (const auto& p : points)
    EXPECT_LE(p.p, 0.001);
}

TEST(ChangePoints, FindsARecentChangeAtTheEndOfALongHistory) {
  auto v = wobble({100}, 297, 0.01);
  for (int i = 0; i < 3; ++i)
    v.push_back(94.0 * (1.0 + 0.01 * std::sin(1.7 * static_cast<double>(i))));
  const auto points = find_change_points(v, change_options{});
  ASSERT_EQ(points.size(), 1U);
  EXPECT_EQ(points[0].index, 297U);
  EXPECT_LT(points[0].change, -0.04);
}

TEST(ChangePoints, TheFloorsHoldBackSmallChanges) {
  // 1.5 % in 0.1 % noise is significant, but under the 2 % effect floor.
  const auto small = wobble({100, 101.5}, 20, 0.001);
  EXPECT_TRUE(find_change_points(small, change_options{}).empty());
  change_options lower;
  lower.min_effect = 0.01;
  ASSERT_EQ(find_change_points(small, lower).size(), 1U);
  // 3 % in 5 % noise over 600 runs is significant, but inside the noise.
  const auto noisy = wobble({100, 103}, 300, 0.05);
  change_options wide;
  wide.window = 600;
  EXPECT_TRUE(find_change_points(noisy, wide).empty());
  wide.noise_factor = 0.0;
  ASSERT_EQ(find_change_points(noisy, wide).size(), 1U);
}

TEST(ChangePoints, SeriesWithoutChangesAndBadInput) {
  change_options options;
  EXPECT_TRUE(find_change_points({}, options).empty());
  const std::vector<double> flat(40, 7.0);
  EXPECT_TRUE(find_change_points(flat, options).empty());
  // Without any spread a step is certain.
  std::vector<double> step(20, 7.0);
  step.resize(40, 8.0);
  const auto points = find_change_points(step, options);
  ASSERT_EQ(points.size(), 1U);
  EXPECT_EQ(points[0].index, 20U);
  EXPECT_EQ(points[0].p, 0.0);
  step[5] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(find_change_points(step, options), core::input_error);
  for (const auto& bad :
       {change_options{0.0}, change_options{0.001, -1.0}, change_options{0.001, 0.02, 1},
        change_options{0.001, 0.02, 3, -1.0}, change_options{0.001, 0.02, 3, 1.0, 5},
        change_options{0.001, 0.02, 3, 1.0, 50, -1.0}}) {
    EXPECT_THROW(find_change_points(flat, bad), core::usage_error);
  }
}

TEST(BenjaminiHochberg, TheirWorkedExample) {
  // Benjamini & Hochberg (1995), section 3.2: of these 15 p-values, 4 are kept at q = 0.05.
  const std::vector<double> p{0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
                              0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000};
  const auto kept = benjamini_hochberg(p, 0.05);
  ASSERT_EQ(kept.size(), p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
    EXPECT_EQ(kept[i], i < 4) << i;
  // The order of the input does not matter; a NaN is never kept; the step-up keeps a p-value
  // above its own rank's line when a larger one is under its line.
  const std::vector<double> shuffled{0.5, 0.03, std::nan(""), 0.04};
  EXPECT_EQ(benjamini_hochberg(shuffled, 0.05), (std::vector<bool>{false, false, false, false}));
  EXPECT_EQ(benjamini_hochberg(shuffled, 0.2), (std::vector<bool>{false, true, false, true}));
  EXPECT_TRUE(benjamini_hochberg({}, 0.05).empty());
  EXPECT_THROW(benjamini_hochberg(p, 0.0), core::usage_error);
}

TEST(ChangePoints, RatesOnAFewExactLevelsAreNoiseNotSteps) {
  // A token-bucket-shaped link measured in 4 MiB samples gives a few exact rates: runs 1-6 sit
  // on two of them, then the link is cut 30 %. The median deviation of such runs is near 0;
  // judged against it, 0.0239 -> 0.0250 at run 4 read as a certain 4 % step.
  const std::vector<double> v{0.02391, 0.02392, 0.0234,  0.025,   0.02392, 0.02496,
                              0.01605, 0.01674, 0.01583, 0.01649, 0.01677, 0.01686};
  const auto found = find_change_points(v, change_options{});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 6u);
}

}  // namespace
}  // namespace gpubench::history

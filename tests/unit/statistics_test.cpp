#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/statistics.hpp"

using namespace gpubench::core;

TEST(Statistics, HandComputedSummary) {
  // 1..10: mean 5.5, median 5.5, sample stdev sqrt(82.5/9) = 3.02765.
  std::vector<double> v{7, 3, 1, 10, 2, 9, 4, 8, 6, 5};
  const summary s = summarize(v);
  EXPECT_EQ(s.count, 10u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_NEAR(s.stdev, 3.0276503540974917, 1e-12);
  EXPECT_NEAR(s.cv, 3.0276503540974917 / 5.5, 1e-12);
  // Type 7: rank = q * (n - 1); p90 -> 8.1 -> 9 + 0.1 * (10 - 9) = 9.1.
  EXPECT_NEAR(s.p90, 9.1, 1e-12);
  EXPECT_NEAR(s.p99, 9.91, 1e-12);
  EXPECT_FALSE(s.p999.has_value());
}

TEST(Statistics, OddCountMedianAndSingleValue) {
  std::vector<double> v{5, 1, 3};
  EXPECT_DOUBLE_EQ(summarize(v).median, 3);
  std::vector<double> one{42};
  const summary s = summarize(one);
  EXPECT_DOUBLE_EQ(s.median, 42);
  EXPECT_DOUBLE_EQ(s.stdev, 0);
  EXPECT_DOUBLE_EQ(s.p99, 42);
}

TEST(Statistics, P999OnlyWithEnoughSamples) {
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i)
    v.push_back(i);
  const summary s = summarize(v);
  ASSERT_TRUE(s.p999.has_value());
  EXPECT_NEAR(*s.p999, 0.999 * 999, 1e-9);
}

TEST(Statistics, EmptyThrows) {
  std::vector<double> none;
  EXPECT_THROW(summarize(none), std::invalid_argument);
  EXPECT_THROW(percentile_sorted(none, 0.5), std::invalid_argument);
}

TEST(Statistics, MedianAbsDeviation) {
  // median 3; deviations 2,1,0,1,97 -> median 1.
  std::vector<double> v{1, 2, 3, 4, 100};
  EXPECT_DOUBLE_EQ(median_abs_deviation(v), 1);
}

TEST(Statistics, RelativeNoiseOfMedian) {
  std::vector<double> flat(100, 2.0);
  EXPECT_DOUBLE_EQ(median_relative_noise(flat), 0.0);
  std::vector<double> two{1, 2};
  EXPECT_TRUE(std::isinf(median_relative_noise(two)));
  // Values 9, 10, 11 repeated: median 10, MAD 1, n = 300.
  std::vector<double> v;
  for (int i = 0; i < 100; ++i)
    v.insert(v.end(), {9, 10, 11});
  EXPECT_NEAR(median_relative_noise(v), 1.2533 * 1.4826 * 1 / std::sqrt(300.0) / 10, 1e-12);
}

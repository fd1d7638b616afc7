#include <gtest/gtest.h>

#include <random>

#include "core/stopping.hpp"

using namespace gpubench::core;

namespace {
stopping_criteria criteria() {
  stopping_criteria c;
  c.min_samples = 10;
  c.min_time = 0.1;
  c.max_noise = 0.01;
  c.timeout = 5.0;
  c.max_samples = 100000;
  return c;
}
}  // namespace

TEST(StoppingRule, StableSamplesStopOnNoiseAfterMinimums) {
  stopping_rule rule(criteria());
  std::optional<stop_reason> r;
  int n = 0;
  // A constant stream: noise is zero, so it stops exactly when both minimums are met.
  while (!r)
    r = rule.add(1.0, 0.02 * ++n);
  EXPECT_EQ(*r, stop_reason::noise);
  EXPECT_EQ(n, 10);  // 10 samples at 0.2 s: both minimums met at sample 10
}

TEST(StoppingRule, MinimumTimeHoldsEvenWhenQuiet) {
  stopping_rule rule(criteria());
  std::optional<stop_reason> r;
  int n = 0;
  while (!r)
    r = rule.add(1.0, 0.001 * ++n);
  EXPECT_EQ(*r, stop_reason::noise);
  EXPECT_EQ(n, 100);  // 0.1 s of 1 ms samples
}

TEST(StoppingRule, NoisyStreamRunsToTimeout) {
  auto c = criteria();
  c.max_noise = 1e-9;
  stopping_rule rule(c);
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> dist(1.0, 2.0);
  std::optional<stop_reason> r;
  int n = 0;
  while (!r)
    r = rule.add(dist(gen), 0.01 * ++n);
  EXPECT_EQ(*r, stop_reason::timeout);
  EXPECT_EQ(n, 500);
}

TEST(StoppingRule, NoiseShrinksWithSamplesUntilBelowThreshold) {
  auto c = criteria();
  c.max_noise = 0.005;
  stopping_rule rule(c);
  std::mt19937 gen(7);
  std::normal_distribution<double> dist(100.0, 5.0);  // 5 % spread
  std::optional<stop_reason> r;
  int n = 0;
  while (!r)
    r = rule.add(dist(gen), 0.001 * ++n);
  EXPECT_EQ(*r, stop_reason::noise);
  // SE of the median ~ 1.2533 * 5 / sqrt(n) / 100 <= 0.005 needs n >= ~157.
  EXPECT_GT(n, 120);
  EXPECT_LT(n, 260);
  EXPECT_LE(rule.noise(), 0.005);
}

TEST(StoppingRule, MaxSamples) {
  auto c = criteria();
  c.max_samples = 3;
  stopping_rule rule(c);
  EXPECT_FALSE(rule.add(1, 0));
  EXPECT_FALSE(rule.add(1, 0));
  EXPECT_EQ(rule.add(1, 0), stop_reason::max_samples);
}

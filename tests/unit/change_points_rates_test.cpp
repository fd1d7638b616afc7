// The change-point method on seeded synthetic series: how often a step of 2, 5 and 10 % in
// noise of 0.5 to 3 % is found, and how often a series without a step raises one. The rates are
// printed (docs/history.md "Method" quotes them); the bar is the issue's: a step of at least 5 %
// in noise of at most 1 % found within 3 runs in >= 95 % of series, A/A alarms in <= 1 %.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <numbers>
#include <random>
#include <vector>

#include "history/change_points.hpp"

namespace gpubench::history {
namespace {

constexpr std::size_t runs_before = 30;

// Uniform and Gaussian numbers from the standard's exactly specified engine (not
// std::normal_distribution, whose algorithm is the library's own): the same series everywhere.
class noise_source {
 public:
  explicit noise_source(std::uint64_t seed) : m_engine(seed) {}
  double uniform() { return (static_cast<double>(m_engine() >> 11) + 0.5) * 0x1.0p-53; }
  double gaussian() {
    const double u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 m_engine;
};

struct scenario {
  double step = 0.0;       // relative; 0: an A/A series
  double noise = 0.01;     // relative standard deviation of a run
  std::size_t after = 3;   // runs after the step (runs_before before it)
  double disturbed = 0.0;  // share of runs measured 20 % low (a noisy neighbour, a bad night)
};

// runs_before runs at 100, then `after` at 100 (1 + step), each times (1 + noise z).
std::vector<double> make_series(std::uint64_t seed, const scenario& s) {
  noise_source source(seed);
  std::vector<double> values;
  for (std::size_t i = 0; i < runs_before + s.after; ++i) {
    const double level = i < runs_before ? 100.0 : 100.0 * (1.0 + s.step);
    double v = level * (1.0 + s.noise * source.gaussian());
    if (source.uniform() < s.disturbed) v *= 0.8;
    values.push_back(v);
  }
  return values;
}

// The share of `count` series in which a change is reported within 3 runs after the step (at
// index runs_before .. runs_before + 3); for an A/A series, in which any change is reported.
double found_rate(const scenario& s, int count) {
  int found = 0;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t seed = 1'000'003ULL * static_cast<std::uint64_t>(i) +
                               static_cast<std::uint64_t>(std::lround(s.step * 1e4)) * 7919ULL +
                               static_cast<std::uint64_t>(std::lround(s.noise * 1e4)) * 104'729ULL +
                               s.after;
    bool hit = false;
    for (const auto& p : find_change_points(make_series(seed, s), change_options{})) {
      hit = hit || s.step == 0.0 || (p.index >= runs_before && p.index <= runs_before + 3);
    }
    found += hit ? 1 : 0;
  }
  return static_cast<double>(found) / count;
}

constexpr double steps[] = {0.02, 0.05, 0.10};
constexpr double noises[] = {0.005, 0.01, 0.02, 0.03};

void steps_found(std::size_t after) {
  for (const double step : steps) {
    for (const double noise : noises) {
      const double rate = found_rate({step, noise, after}, 100);
      std::cout << "  step " << step * 100 << " %, noise " << noise * 100 << " %: " << rate * 100
                << " %\n";
      if (step >= 0.05 && noise <= 0.01) {
        EXPECT_GE(rate, 0.95) << step << " in " << noise;
      }
    }
  }
}

TEST(ChangePointRates, StepsFoundWithThreeRunsAfterThem) {
  std::cout << "found with 3 runs after the step (30 before), 100 series each:\n";
  steps_found(3);
}

TEST(ChangePointRates, StepsFoundMidwayAtTheirRun) {
  std::cout << "found within 3 runs of the step, 30 runs on each side, 100 series each:\n";
  steps_found(30);
}

TEST(ChangePointRates, SeriesWithoutAStepRaiseFewAlarms) {
  // 1000 series each: 100 could not tell 1 % from 0.
  std::cout << "A/A series raising a change, 1000 series each:\n";
  for (const std::size_t length : {33, 60, 200}) {
    for (const double noise : noises) {
      const double rate = found_rate({0.0, noise, length - runs_before}, 1000);
      std::cout << "  " << length << " runs, noise " << noise * 100 << " %: " << rate * 100
                << " %\n";
      EXPECT_LE(rate, 0.01) << length << " runs in " << noise;
    }
  }
}

TEST(ChangePointRates, DisturbedRunsNeitherHideStepsNorRaiseMany) {
  // One run in twenty 20 % low: without the t-test's clip a 5 % step was found in 34 % of these
  // series midway and in 18 % with 3 runs after it. Two disturbed runs among three in a row
  // move the median of a 3-run segment by 20 %, and are reported (as a dip: a change down and
  // one back up): the A/A bar is looser here.
  const double midway = found_rate({0.05, 0.01, 30, 0.05}, 100);
  const double recent = found_rate({0.05, 0.01, 3, 0.05}, 100);
  const double alarms = found_rate({0.0, 0.01, 30, 0.05}, 1000);
  std::cout << "one run in 20 disturbed (20 % low), noise 1 %: step 5 % found midway "
            << midway * 100 << " %, with 3 runs after it " << recent * 100
            << " %; A/A (60 runs) alarms " << alarms * 100 << " %\n";
  EXPECT_GE(midway, 0.9);
  EXPECT_GE(recent, 0.8);
  EXPECT_LE(alarms, 0.05);
}

}  // namespace
}  // namespace gpubench::history

// Summary statistics over a set of samples: pure functions, no state.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace gpubench::core {

struct summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0, stdev = 0, cv = 0, p90 = 0, p99 = 0;
  std::optional<double> p999;  // only with at least min_samples_for_p999 samples
};

inline constexpr std::size_t min_samples_for_p999 = 1000;

// Percentile q in [0, 1] of sorted values, interpolated linearly between closest ranks
// (Hyndman & Fan type 7, the default of R and NumPy). Throws on an empty span.
double percentile_sorted(std::span<const double> sorted, double q);

// Sample standard deviation (n - 1 in the denominator); 0 for fewer than two values.
double sample_stdev(std::span<const double> values, double mean);

// Median absolute deviation from the median.
double median_abs_deviation(std::span<const double> values);

// Relative standard error of the median, estimated robustly: 1.2533 * 1.4826 * MAD / sqrt(n)
// divided by the median. Used by the stopping rule; +inf when it cannot be estimated.
double median_relative_noise(std::span<const double> values);

// All of the above at once. Throws std::invalid_argument on an empty span.
summary summarize(std::span<const double> samples);

}  // namespace gpubench::core

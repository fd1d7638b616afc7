// Change points of one series of measurements: E-divisive means to place them, Student's t-test
// for their significance (Otava's method, deterministic), an effect floor and a noise floor;
// and Benjamini-Hochberg over the p-values of many series. docs/history.md "Method".
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace gpubench::history {

struct change_options {
  double max_p = 0.001;         // significance of a change (t-test)
  double min_effect = 0.02;     // relative change of the median below which nothing is reported
  std::size_t min_segment = 3;  // fewest observations on each side of a change (at least 2)
  // A change of the median below noise_factor times the series' own spread (the robust
  // standard deviation of the observations on both sides about their segments' medians) is
  // not reported: over a long history a t-test calls a step well inside the noise significant.
  double noise_factor = 1.0;
  // Observations E-divisive looks at at once, in windows overlapping by half (Otava's default):
  // the work grows with the series' length times the window, not with its square.
  std::size_t window = 50;
  // Before the t-test, an observation further than clip times that spread from its segment's
  // median is pulled in to that distance (winsorized; 0: not): one disturbed run among the three
  // after a change would otherwise hide it. The floors use medians already.
  double clip = 3.0;
};

struct change_point {
  std::size_t index;     // first observation after the change
  double before_median;  // median of the segment before
  double after_median;   // median of the segment after
  double change;         // after_median / before_median - 1
  double p;              // the t-test's p-value, times the places the change could have been
                         // put in its stretch (Bonferroni; docs/history.md "Method")
};

// Throws core::usage_error naming the option when one is out of range.
void check_options(const change_options& options);

// E-divisive means with a t-test for significance (Otava's method), deterministic. The segments
// are those between consecutive changes (the first starts at 0, the last ends at the end).
// Throws core::usage_error for bad options and core::input_error for a value that is not finite.
std::vector<change_point> find_change_points(std::span<const double> values,
                                             const change_options& options);

// Benjamini-Hochberg: which p-values stay significant at false discovery rate q (0 < q <= 1).
// A p-value that is NaN is never significant.
std::vector<bool> benjamini_hochberg(std::span<const double> p_values, double q);

}  // namespace gpubench::history

// Where a segment of a series splits best by the energy statistic of E-divisive means
// (Matteson & James 2014, with alpha = 1): the candidate a t-test then judges.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace gpubench::history {

struct energy_split {
  std::size_t index = 0;  // first observation of the right part, absolute in the series
  double q = 0.0;         // the scaled energy distance between the two parts there
};

// The split of values[begin, end) that maximises
//   Q(t) = m n / (m + n) * (2/(m n) sum|x_i - y_j| - sum|x_i - x_k| / C(m,2) - sum|y_j - y_k| /
//   C(n,2))
// over splits leaving at least `min_side` (>= 2) observations on each side; the first of equal
// maxima. None when the segment is too short. Time O((end - begin)^2), memory O(1).
std::optional<energy_split> best_energy_split(std::span<const double> values, std::size_t begin,
                                              std::size_t end, std::size_t min_side);

}  // namespace gpubench::history

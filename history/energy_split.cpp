#include "history/energy_split.hpp"

#include <cmath>

namespace gpubench::history {

std::optional<energy_split> best_energy_split(std::span<const double> values, std::size_t begin,
                                              std::size_t end, std::size_t min_side) {
  if (min_side < 2 || end > values.size() || begin > end || end - begin < 2 * min_side) {
    return std::nullopt;
  }
  const auto distance_sum = [&](std::size_t i, std::size_t from, std::size_t to) {
    double sum = 0.0;
    for (std::size_t k = from; k < to; ++k)
      sum += std::abs(values[i] - values[k]);
    return sum;
  };
  // The sums of distances within the left part [begin, t) and within the right part [t, end),
  // moved one observation at a time; the sum across is what the total leaves.
  double within_right = 0.0;
  for (std::size_t i = begin; i < end; ++i)
    within_right += distance_sum(i, i + 1, end);
  const double total = within_right;
  double within_left = 0.0;
  std::optional<energy_split> best;
  for (std::size_t t = begin + 1; t + min_side <= end; ++t) {
    // Observation t - 1 leaves the right part for the left one.
    within_left += distance_sum(t - 1, begin, t - 1);
    within_right -= distance_sum(t - 1, t, end);
    const auto m = static_cast<double>(t - begin);
    const auto n = static_cast<double>(end - t);
    if (t - begin < min_side) continue;
    const double across = total - within_left - within_right;
    const double energy = 2.0 * across / (m * n) - within_left / (m * (m - 1) / 2.0) -
                          within_right / (n * (n - 1) / 2.0);
    const double q = m * n / (m + n) * energy;
    if (!best || q > best->q) best = energy_split{t, q};
  }
  return best;
}

}  // namespace gpubench::history

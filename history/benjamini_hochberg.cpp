// Benjamini & Hochberg (1995): the step-up procedure that keeps the false discovery rate of
// many tests at q, where a p-value threshold per test would raise false alarms with their count.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "history/change_points.hpp"

namespace gpubench::history {

std::vector<bool> benjamini_hochberg(std::span<const double> p_values, double q) {
  if (!(q > 0.0 && q <= 1.0)) {
    throw core::usage_error("false discovery rate must be within (0, 1]");
  }
  std::vector<std::size_t> order(p_values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto p_of = [&](std::size_t i) { return std::isnan(p_values[i]) ? 2.0 : p_values[i]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_of(a) < p_of(b); });
  // The largest rank k whose p-value is at most k/m q: it and every smaller one are kept.
  const auto m = static_cast<double>(p_values.size());
  std::size_t kept = 0;
  for (std::size_t rank = 1; rank <= order.size(); ++rank) {
    if (p_of(order[rank - 1]) <= static_cast<double>(rank) / m * q) kept = rank;
  }
  std::vector<bool> significant(p_values.size(), false);
  for (std::size_t rank = 0; rank < kept; ++rank)
    significant[order[rank]] = true;
  return significant;
}

}  // namespace gpubench::history

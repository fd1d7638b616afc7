#include "reports/views/chart_spread.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace gpubench::reports::views {

using namespace model;

namespace {

// The median of `values` (not empty); sorts them.
double median_of(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

std::vector<chart_series> spread_series(const std::vector<chart_series>& variants,
                                        bool higher_is_better) {
  if (variants.empty()) return {};
  std::map<double, std::vector<double>> at;  // x -> the variants' values there
  for (const auto& s : variants)
    for (const auto& p : s.points)
      if (std::isfinite(p.y)) at[p.x].push_back(p.y);
  const std::string of = " of " + std::to_string(variants.size()) + " variants";
  chart_series best{(higher_is_better ? "highest" : "lowest") + of, {}, false};
  chart_series middle{"median" + of, {}, false};
  chart_series worst{(higher_is_better ? "lowest" : "highest") + of, {}, false};
  for (auto& [x, values] : at) {
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const double low = *lo, high = *hi;
    best.points.push_back({x, higher_is_better ? high : low, 0, 0});
    worst.points.push_back({x, higher_is_better ? low : high, 0, 0});
    middle.points.push_back({x, median_of(values), 0, 0});
  }
  return {std::move(best), std::move(middle), std::move(worst)};
}

}  // namespace gpubench::reports::views

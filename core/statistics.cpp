#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace gpubench::core {

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("percentile of an empty sample set");
  q = std::clamp(q, 0.0, 1.0);
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double sample_stdev(std::span<const double> values, double mean) {
  if (values.size() < 2) return 0.0;
  double sq = 0.0;
  for (double v : values)
    sq += (v - mean) * (v - mean);
  return std::sqrt(sq / static_cast<double>(values.size() - 1));
}

double median_abs_deviation(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("MAD of an empty sample set");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const double med = percentile_sorted(sorted, 0.5);
  for (double& v : sorted)
    v = std::fabs(v - med);
  std::sort(sorted.begin(), sorted.end());
  return percentile_sorted(sorted, 0.5);
}

double median_relative_noise(std::span<const double> values) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (values.size() < 3) return inf;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const double med = percentile_sorted(sorted, 0.5);
  if (med == 0.0) return inf;
  // 1.4826 * MAD estimates sigma for normal data; the median's standard error is
  // sqrt(pi/2) = 1.2533 times the mean's.
  const double se = 1.2533 * 1.4826 * median_abs_deviation(values) /
                    std::sqrt(static_cast<double>(values.size()));
  return std::fabs(se / med);
}

summary summarize(std::span<const double> samples) {
  if (samples.empty()) throw std::invalid_argument("statistics of an empty sample set");
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  summary s;
  s.count = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.count);
  s.median = percentile_sorted(sorted, 0.5);
  s.stdev = sample_stdev(sorted, s.mean);
  s.cv = s.mean != 0.0 ? s.stdev / s.mean : 0.0;
  s.p90 = percentile_sorted(sorted, 0.90);
  s.p99 = percentile_sorted(sorted, 0.99);
  if (s.count >= min_samples_for_p999) s.p999 = percentile_sorted(sorted, 0.999);
  return s;
}

}  // namespace gpubench::core

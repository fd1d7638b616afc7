#include "history/gate.hpp"

#include "history/t_test.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpubench::history {

namespace {

double median_of(std::span<const double> v) {
  std::vector<double> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

// The segment with every value further than clip x 1.4826 x MAD from the median pulled in.
std::vector<double> winsorized(std::span<const double> segment, double clip) {
  std::vector<double> v(segment.begin(), segment.end());
  if (clip <= 0 || v.size() < 3) return v;
  const double median = median_of(v);
  std::vector<double> deviation;
  for (double x : v)
    deviation.push_back(std::fabs(x - median));
  const double reach = clip * 1.4826 * median_of(deviation);
  for (double& x : v)
    x = std::clamp(x, median - reach, median + reach);
  return v;
}

}  // namespace

double prediction_p(std::span<const double> segment, double value, double clip) {
  const std::size_t n = segment.size();
  if (n < 2) return 1;
  const std::vector<double> v = winsorized(segment, clip);
  double mean = 0;
  for (double x : v)
    mean += x;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double x : v)
    ss += (x - mean) * (x - mean);
  const double s = std::sqrt(ss / static_cast<double>(n - 1));
  const double spread = s * std::sqrt(1 + 1 / static_cast<double>(n));
  if (spread == 0) return value == mean ? 1 : 0;
  return t_two_sided_p((value - mean) / spread, static_cast<double>(n - 1));
}

gate_judgement judge_point(std::span<const double> segment, double value, bool higher_is_better,
                           const gate_options& options) {
  gate_judgement j;
  j.history = segment.size();
  if (segment.empty()) return j;
  j.median = median_of(segment);
  if (*j.median > 0 && std::isfinite(value)) {
    const double ratio = value / *j.median - 1;
    j.change = higher_is_better ? ratio : -ratio;
  }
  if (segment.size() < options.min_history) {
    j.outcome = gate_outcome::too_short;
    return j;
  }
  j.p = prediction_p(segment, value, options.clip);
  if (!j.change || std::fabs(*j.change) <= options.threshold)
    j.outcome = gate_outcome::same;
  else if (*j.p > options.alpha)
    j.outcome = gate_outcome::noisy;
  else
    j.outcome = *j.change > 0 ? gate_outcome::better : gate_outcome::worse;
  return j;
}

}  // namespace gpubench::history

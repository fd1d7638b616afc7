#include "history/gate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace gpubench::history {

namespace {

// The continued fraction of the regularized incomplete beta function (modified Lentz).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double eps = 1e-14;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < eps) break;
  }
  return h;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double median_of(std::span<const double> v) {
  std::vector<double> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

}  // namespace

double student_t_two_sided(double t, double dof) {
  if (!std::isfinite(t)) return std::isnan(t) ? 1 : 0;
  return incomplete_beta(dof / 2, 0.5, dof / (dof + t * t));
}

double prediction_p(std::span<const double> segment, double value) {
  const std::size_t n = segment.size();
  if (n < 2) return 1;
  double mean = 0;
  for (double v : segment)
    mean += v;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double v : segment)
    ss += (v - mean) * (v - mean);
  const double s = std::sqrt(ss / static_cast<double>(n - 1));
  const double spread = s * std::sqrt(1 + 1 / static_cast<double>(n));
  if (spread == 0) return value == mean ? 1 : 0;
  return student_t_two_sided((value - mean) / spread, static_cast<double>(n - 1));
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
  j.p = prediction_p(segment, value);
  if (!j.change || std::fabs(*j.change) <= options.threshold)
    j.outcome = gate_outcome::same;
  else if (*j.p > options.alpha)
    j.outcome = gate_outcome::noisy;
  else
    j.outcome = *j.change > 0 ? gate_outcome::better : gate_outcome::worse;
  return j;
}

}  // namespace gpubench::history

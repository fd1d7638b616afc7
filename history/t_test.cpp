#include "history/t_test.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace gpubench::history {
namespace {

// The continued fraction of I_x(a, b) by the modified Lentz method; it converges quickly for
// x < (a + 1) / (a + b + 2), the side incomplete_beta calls it on.
double beta_fraction(double a, double b, double x) {
  constexpr int max_terms = 300;
  constexpr double epsilon = 1e-15;
  constexpr double tiny = 1e-300;
  const auto guard = [](double v) { return std::abs(v) < tiny ? tiny : v; };
  double c = 1.0;
  double d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
  double fraction = d;
  for (int m = 1; m <= max_terms; ++m) {
    const double md = m;
    // The even term, then the odd one, of the fraction's numerators.
    const double even = md * (b - md) * x / ((a + 2 * md - 1) * (a + 2 * md));
    d = 1.0 / guard(1.0 + even * d);
    c = guard(1.0 + even / c);
    fraction *= d * c;
    const double odd = -(a + md) * (a + b + md) * x / ((a + 2 * md) * (a + 2 * md + 1));
    d = 1.0 / guard(1.0 + odd * d);
    c = guard(1.0 + odd / c);
    const double step = d * c;
    fraction *= step;
    if (std::abs(step - 1.0) < epsilon) break;
  }
  return fraction;
}

struct moments {
  double mean = 0.0;
  double squares = 0.0;  // sum of squared deviations from the mean
};

moments moments_of(std::span<const double> v) {
  moments m;
  m.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  for (const double x : v)
    m.squares += (x - m.mean) * (x - m.mean);
  return m;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0)) {
    throw std::invalid_argument("incomplete beta: needs a, b > 0 and 0 <= x <= 1");
  }
  if (x == 0.0 || x == 1.0) return x;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double t_two_sided_p(double t, double df) {
  if (!(df > 0.0)) throw std::invalid_argument("t distribution: needs df > 0");
  if (std::isnan(t)) return 1.0;
  if (std::isinf(t)) return 0.0;
  return incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
}

t_test_result student_t_test(std::span<const double> a, std::span<const double> b) {
  if (a.empty() || b.empty() || a.size() + b.size() < 3) {
    throw std::invalid_argument("t-test: needs a value on each side and three in all");
  }
  const moments ma = moments_of(a);
  const moments mb = moments_of(b);
  const auto na = static_cast<double>(a.size());
  const auto nb = static_cast<double>(b.size());
  t_test_result r;
  r.df = na + nb - 2.0;
  const double pooled_variance = (ma.squares + mb.squares) / r.df;
  const double error = std::sqrt(pooled_variance * (1.0 / na + 1.0 / nb));
  const double difference = mb.mean - ma.mean;
  // Relative to the means, a spread below rounding is no spread.
  const double scale = std::max(std::abs(ma.mean), std::abs(mb.mean));
  if (!(error > scale * 1e-12)) {
    const bool same = std::abs(difference) <= scale * 1e-12;
    r.t = same ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), difference);
    r.p = same ? 1.0 : 0.0;
    return r;
  }
  r.t = difference / error;
  r.p = t_two_sided_p(r.t, r.df);
  return r;
}

}  // namespace gpubench::history

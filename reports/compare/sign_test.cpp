#include "reports/compare/sign_test.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>

namespace gpubench::reports::compare {

double sign_test_two_sided_p(std::size_t lower, std::size_t higher) {
  const std::size_t n = lower + higher;
  if (n == 0) return 1;
  const std::size_t k = std::max(lower, higher);
  // P(X >= k) summed in log space: n may be thousands of points.
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  const double log_n_fact = std::lgamma(static_cast<double>(n) + 1);
  double tail = 0;
  for (std::size_t i = k; i <= n; ++i)
    tail += std::exp(log_n_fact - std::lgamma(static_cast<double>(i) + 1) -
                     std::lgamma(static_cast<double>(n - i) + 1) + log_half_n);
  return std::min(1.0, 2 * tail);
}

namespace {

struct sweep {
  std::size_t lower = 0;   // new value below base
  std::size_t higher = 0;  // new value above base
  std::size_t points = 0;  // every one-value point with both values, ties included
  double p = 1;
};

std::string sweep_text(const sweep& s) {
  const bool mostly_lower = s.lower >= s.higher;
  return fmt::format("sign test across the sweep's {} one-value points: {} of {} {}, p = {:.2g}",
                     s.points, mostly_lower ? s.lower : s.higher, s.lower + s.higher,
                     mostly_lower ? "lower" : "higher", s.p);
}

}  // namespace

void judge_one_value_sweeps(std::vector<comparison_row>& rows, const compare_options& options) {
  std::map<std::string, sweep> sweeps;
  for (const auto& r : rows) {
    if (!r.one_value || !r.ratio || !std::isfinite(*r.ratio)) continue;
    sweep& s = sweeps[r.benchmark];
    ++s.points;
    if (*r.ratio < 1) ++s.lower;
    if (*r.ratio > 1) ++s.higher;
  }
  for (auto& [id, s] : sweeps)
    s.p = sign_test_two_sided_p(s.lower, s.higher);

  const double factor = options.single_value_factor;
  for (auto& r : rows) {
    if (!r.one_value || !r.ratio || !r.change || !std::isfinite(*r.ratio)) continue;
    if (std::fabs(*r.change) <= r.threshold) continue;  // SAME, decided by the threshold
    const sweep& s = sweeps.at(r.benchmark);
    r.sign_p = s.p;
    const bool row_lower = *r.ratio < 1;
    const bool sweep_decides =
        s.p < options.alpha && s.lower != s.higher && row_lower == (s.lower > s.higher);
    const double fold = row_lower ? 1 / *r.ratio : *r.ratio;
    const bool bound_decides = *r.ratio >= 0 && fold >= factor;
    if (sweep_decides) {
      r.decided_by = "sign test";
      r.note = "one value per point; decided by the " + sweep_text(s);
      if (bound_decides)
        r.note += fmt::format(" (and alone {:.3g}x, beyond the {:g}x bound)", fold, factor);
    } else if (bound_decides) {
      r.decided_by = "single-value bound";
      r.note = fmt::format(
          "one value per point; decided by the single-value bound: {:.3g}x {}, beyond {:g}x "
          "({})",
          fold, row_lower ? "lower" : "higher", factor, sweep_text(s));
    } else {
      r.result = verdict::noisy;
      r.regression = false;
      r.note = fmt::format(
          "one value, no significance test on the point: within the {:g}x single-value bound, "
          "and the {} is {}",
          factor, sweep_text(s), s.p < options.alpha ? "the other way" : "not significant");
      continue;
    }
    r.result = *r.change > 0 ? verdict::faster : verdict::slower;
    r.regression = r.result == verdict::slower;
  }
}

}  // namespace gpubench::reports::compare

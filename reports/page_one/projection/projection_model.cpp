#include "reports/page_one/projection/projection_model.hpp"

#include <algorithm>
#include <cmath>

namespace gpubench::reports::page_one::projection {

std::optional<std::pair<size_time, size_time>> bracket(const std::vector<size_time>& measured,
                                                       double bytes) {
  if (measured.empty() || !(bytes > 0)) return std::nullopt;
  if (bytes < measured.front().bytes || bytes > measured.back().bytes) return std::nullopt;
  const auto hi = std::lower_bound(measured.begin(), measured.end(), bytes,
                                   [](const size_time& p, double b) { return p.bytes < b; });
  if (hi->bytes == bytes) return std::pair{*hi, *hi};
  return std::pair{*std::prev(hi), *hi};
}

std::optional<double> interpolate_seconds(const std::vector<size_time>& measured, double bytes) {
  const auto b = bracket(measured, bytes);
  if (!b) return std::nullopt;
  const auto& [lo, hi] = *b;
  if (lo.bytes == hi.bytes) return lo.seconds;
  if (!(lo.seconds > 0) || !(hi.seconds > 0)) return std::nullopt;
  // A straight line in log(size)-log(time): t = t_lo x (s / s_lo)^k.
  const double k = std::log(hi.seconds / lo.seconds) / std::log(hi.bytes / lo.bytes);
  return lo.seconds * std::pow(bytes / lo.bytes, k);
}

double step_seconds(double compute, double communication, double overlap) {
  return compute + communication * (1.0 - overlap);
}

double speedup(double n, double base_n, double step_base, double step_n) {
  return n / base_n * step_base / step_n;
}

}  // namespace gpubench::reports::page_one::projection

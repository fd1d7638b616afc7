#include "reports/page_one/projection/alpha_beta.hpp"

#include <algorithm>
#include <cmath>

namespace gpubench::reports::page_one::projection {

std::optional<ring_terms> ring_terms_of(std::string_view operation, double ranks) {
  if (!(ranks >= 1)) return std::nullopt;
  const double n = ranks;
  if (operation == "allreduce") return ring_terms{2 * (n - 1), 2 * (n - 1) / n};
  if (operation == "allgather" || operation == "reduce_scatter" || operation == "alltoall")
    return ring_terms{n - 1, (n - 1) / n};
  if (operation == "broadcast") return ring_terms{n - 1, 1};
  if (operation == "sendrecv") return ring_terms{1, 1};
  return std::nullopt;
}

std::optional<alpha_beta> fit_alpha_beta(std::string_view operation,
                                         const std::vector<timed_point>& points) {
  // Rows x = (a / t, f S / t), target 1: minimises sum ((a alpha + f S beta - t) / t)^2 over
  // alpha and beta = 1 / B.
  struct row {
    double x1, x2;
  };
  std::vector<row> rows;
  std::vector<timed_point> used;
  for (const auto& p : points) {
    const auto terms = ring_terms_of(operation, p.ranks);
    if (!terms || p.ranks < 2 || !(p.seconds > 0) || !(p.bytes > 0) || !std::isfinite(p.seconds))
      continue;
    rows.push_back({terms->latency_steps / p.seconds, terms->bus_factor * p.bytes / p.seconds});
    used.push_back(p);
  }
  if (rows.size() < 2) return std::nullopt;
  double s11 = 0, s12 = 0, s22 = 0, b1 = 0, b2 = 0;
  for (const auto& r : rows) {
    s11 += r.x1 * r.x1;
    s12 += r.x1 * r.x2;
    s22 += r.x2 * r.x2;
    b1 += r.x1;
    b2 += r.x2;
  }
  const double det = s11 * s22 - s12 * s12;
  // Collinear rows (every point the same a and f S): alpha and B cannot be told apart.
  if (!(std::abs(det) > 1e-12 * s11 * s22)) return std::nullopt;
  double alpha = (b1 * s22 - b2 * s12) / det;
  double beta = (s11 * b2 - s12 * b1) / det;
  if (alpha < 0) {
    alpha = 0;
    beta = b2 / s22;
  }
  if (!(beta > 0)) return std::nullopt;
  alpha_beta fit{alpha, 1 / beta, static_cast<int>(rows.size()), 0, 0};
  double sum_sq = 0;
  for (const auto& p : used) {
    const double r = (*predict_seconds(fit, operation, p.ranks, p.bytes) - p.seconds) / p.seconds;
    sum_sq += r * r;
    fit.max_residual = std::max(fit.max_residual, std::abs(r));
  }
  fit.rms_residual = std::sqrt(sum_sq / double(used.size()));
  return fit;
}

std::optional<double> predict_seconds(const alpha_beta& fit, std::string_view operation,
                                      double ranks, double bytes) {
  const auto terms = ring_terms_of(operation, ranks);
  if (!terms || !(fit.bus_bytes_per_s > 0)) return std::nullopt;
  return terms->latency_steps * fit.alpha_seconds + terms->bus_factor * bytes / fit.bus_bytes_per_s;
}

}  // namespace gpubench::reports::page_one::projection

#include "core/progress.hpp"

#include <algorithm>

#include <cmath>

#include <fmt/format.h>

#include "core/case_state.hpp"

namespace gpubench::core {

double case_time_budget_s(const benchmark_def& def, const run_context& ctx) {
  const auto& c = def.criteria;
  if (ctx.quick && c.quick_case_budget > 0) return c.quick_case_budget;
  return c.case_budget;
}

double case_budget_s(const benchmark_def& def, const run_context& ctx) {
  const auto points = static_cast<double>(case_sizes(def, ctx).size());
  const double by_points = points * def.criteria.timeout;
  const double own = case_time_budget_s(def, ctx);
  return own > 0 ? std::min(own, by_points) : by_points;
}

progress_estimate::progress_estimate(std::vector<double> budgets)
    : m_budgets(std::move(budgets)), m_done(m_budgets.size(), false) {}

void progress_estimate::finished(std::size_t index, double seconds) {
  if (index >= m_budgets.size() || m_done[index]) return;
  m_done[index] = true;
  if (m_budgets[index] <= 0) return;
  m_spent_budget += m_budgets[index];
  m_spent_time += seconds;
}

double progress_estimate::left_s() const {
  double left = 0;
  for (std::size_t i = 0; i < m_budgets.size(); ++i)
    if (!m_done[i]) left += m_budgets[i];
  // A case never takes more than its budget's worth per point, but usually far less: once some
  // have finished, their ratio of time to budget scales the rest.
  return calibrated() ? left * (m_spent_time / m_spent_budget) : left;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  const auto s = static_cast<long long>(std::llround(seconds));
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{}:{:02}", s / 60, s % 60);
  return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

std::string progress_time_text(double elapsed_s, const progress_estimate& estimate) {
  return fmt::format("{} elapsed, {} {} left", format_duration(elapsed_s),
                     estimate.calibrated() ? "about" : "at most",
                     format_duration(estimate.left_s()));
}

}  // namespace gpubench::core

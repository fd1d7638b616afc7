#include "benchmarks/collectives/sweep_guard.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/progress.hpp"
#include "core/units.hpp"

namespace gpubench::benchmarks::collectives {

bool bandwidth_bound(const std::vector<double>& busbw, std::uint64_t bytes,
                     std::uint64_t from_bytes, double gain) {
  const std::size_t n = busbw.size();
  if (n < 3 || bytes < from_bytes) return false;
  const double a = busbw[n - 3], b = busbw[n - 2], c = busbw[n - 1];
  if (!(a > 0) || !(b > 0) || !(c > 0)) return false;
  return b < a * (1 + gain) && c < b * (1 + gain);
}

double point_limit_s(double sample_s, std::size_t min_samples, double timeout, double left_s,
                     std::size_t points_left) {
  const double need = 1.25 * static_cast<double>(min_samples) * std::max(0.0, sample_s);
  if (!(left_s > 0)) return std::max(timeout, need);
  const double share = left_s / static_cast<double>(std::max<std::size_t>(1, points_left));
  return std::min(std::max(std::min(timeout, share), need), left_s);
}

sweep_guard::sweep_guard(core::case_state& state, transports::process_group& group,
                         std::vector<std::uint64_t> planned)
    : m_state(state), m_group(group), m_planned(std::move(planned)) {
  const auto& ctx = state.context();
  m_budget_s = core::case_time_budget_s(state.definition(), ctx);
  m_quick = ctx.quick && !ctx.sizes;
}

double sweep_guard::spent_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void sweep_guard::stopped(std::uint64_t last_bytes, const std::string& why) {
  m_state.context_info()["sweep"] = {
      {"planned_max_bytes", m_planned.empty() ? 0 : m_planned.back()},
      {"last_bytes", last_bytes},
      {"stopped_because", why}};
}

bool sweep_guard::over_budget(std::uint64_t bytes) {
  const bool over = m_group.any(m_budget_s > 0 && spent_s() >= m_budget_s);
  if (over)
    stopped(m_last,
            fmt::format("the case's time budget ({:g} s{}) was spent before {}", m_budget_s,
                        m_state.context().quick ? ", --quick" : "", core::format_bytes(bytes)));
  return over;
}

double sweep_guard::point_limit(std::uint64_t bytes, double sample_s) const {
  const auto& c = m_state.definition().criteria;
  const double left = m_budget_s > 0 ? std::max(1e-3, m_budget_s - spent_s()) : 0;
  const auto points_left = static_cast<std::size_t>(
      std::count_if(m_planned.begin(), m_planned.end(), [&](auto s) { return s >= bytes; }));
  return point_limit_s(sample_s, c.min_samples, c.timeout, left, points_left);
}

bool sweep_guard::bandwidth_bound(std::uint64_t bytes, double busbw) {
  m_last = bytes;
  m_busbw.push_back(busbw);
  if (!m_quick || m_planned.empty() || bytes >= m_planned.back() ||
      !collectives::bandwidth_bound(m_busbw, bytes))
    return false;
  stopped(bytes,
          "bandwidth-bound: busbw grew less than 10 % over each of the last two "
          "doublings of the size (quick sweep)");
  return true;
}

}  // namespace gpubench::benchmarks::collectives

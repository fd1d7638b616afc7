#include "cluster/cluster_progress.hpp"

#include <fmt/format.h>

#include "core/progress.hpp"

namespace gpubench::cluster {

cluster_progress::cluster_progress(phase_budgets budgets) : m_budgets(budgets) {}

double cluster_progress::since_start() const {
  return std::chrono::duration<double>(clock::now() - m_start).count();
}

void cluster_progress::local_done() {
  m_local_done = true;
  m_local_took = since_start();
  m_rounds_start = clock::now();
}

void cluster_progress::round_done() {
  ++m_rounds_done;
}

double cluster_progress::left_s() const {
  // The local phase's ratio of time to budget scales the collectives' budget too: both are
  // ordinary cases stopped by the same rules.
  const double ratio =
      m_local_done && m_budgets.local_s > 0 ? m_local_took / m_budgets.local_s : 1.0;
  double left = m_local_done ? 0 : m_budgets.local_s;
  const std::size_t rounds_left =
      m_budgets.rounds > m_rounds_done ? m_budgets.rounds - m_rounds_done : 0;
  const double per_round =
      m_rounds_done > 0 ? std::chrono::duration<double>(clock::now() - m_rounds_start).count() /
                              static_cast<double>(m_rounds_done)
                        : m_budgets.round_s * ratio;
  left += static_cast<double>(rounds_left) * per_round;
  left += m_budgets.collectives_s * ratio;
  return left;
}

std::string cluster_progress::text() const {
  const bool calibrated = (m_local_done && m_budgets.local_s > 0) || m_rounds_done > 0;
  return fmt::format("{} elapsed, {} {} left", core::format_duration(since_start()),
                     calibrated ? "about" : "at most", core::format_duration(left_s()));
}

}  // namespace gpubench::cluster

// Where a cluster launch is, for rank 0's console: time elapsed and what is left, from the
// phases' time budgets (core/progress.hpp: the local cases' and the collectives' budgets, a
// pair round's from its cases and sizes) and, once pair rounds have run, from the time they took.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace gpubench::cluster {

struct phase_budgets {
  double local_s = 0;        // the node-local cases (every node measures at once)
  std::size_t rounds = 0;    // pair rounds (sub-rounds counted)
  double round_s = 0;        // one pair round: its cases at every pair size
  double collectives_s = 0;  // the collective cases
};

class cluster_progress {
 public:
  explicit cluster_progress(phase_budgets budgets);

  void local_done();
  void round_done();
  // "1:20 elapsed, about 2:00 left" ("at most" while no phase has finished to scale by).
  std::string text() const;
  // Seconds left, as estimated now.
  double left_s() const;

 private:
  using clock = std::chrono::steady_clock;
  double since_start() const;

  phase_budgets m_budgets;
  clock::time_point m_start = clock::now();
  clock::time_point m_rounds_start = m_start;
  bool m_local_done = false;
  double m_local_took = 0;
  std::size_t m_rounds_done = 0;
};

}  // namespace gpubench::cluster

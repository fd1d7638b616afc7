// How far a collective's size sweep goes (docs/collectives.md, "How long it takes"): the case's
// time budget (--quick lowers it), looked at by every rank together before each size; a
// point's time limit that lets slow samples reach the stopping rule's minimum within what is
// left of it; and, in the quick sweep, the end of the sweep once the curve is bandwidth-bound.
// Where a sweep ended early, and why, goes into the case's context ("sweep").
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "core/case_state.hpp"
#include "transports/process_group.hpp"

namespace gpubench::benchmarks::collectives {

// Bandwidth-bound: each of the last two doublings of the size raised busbw by less than
// `gain` (10 %). `busbw` holds the points of a doubling sweep in order.
bool bandwidth_bound(const std::vector<double>& busbw, double gain = 0.10);

// The time limit of a point whose samples take `sample_s` each: enough for the rule's
// `min_samples` with a quarter to spare, within `left_s` of the case's budget (0: no limit
// beyond the criteria's own timeout).
double point_limit_s(double sample_s, std::size_t min_samples, double left_s);

class sweep_guard {
 public:
  sweep_guard(core::case_state& state, transports::process_group& group);

  // Before the size `bytes`: true on every rank when the case's budget is spent (one rank's
  // clock is enough: the ranks must sweep the same sizes).
  bool over_budget(std::uint64_t bytes);
  // The limit of a point whose samples take `sample_s` each.
  double point_limit(double sample_s) const;
  // After the size `bytes` measured `busbw`: true when the quick sweep ends here.
  bool bandwidth_bound(std::uint64_t bytes, double busbw);

 private:
  double spent_s() const;
  void stopped(std::uint64_t last_bytes, const std::string& why);

  core::case_state& m_state;
  transports::process_group& m_group;
  double m_budget_s = 0;
  bool m_quick = false;  // the quick sweep (--quick without --sizes)
  std::uint64_t m_planned_max = 0;
  std::uint64_t m_last = 0;  // the last size measured
  std::vector<double> m_busbw;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace gpubench::benchmarks::collectives

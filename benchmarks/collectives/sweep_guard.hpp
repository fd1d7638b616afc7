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

// Bandwidth-bound: from `from_bytes` on (smaller messages are latency-bound on every fabric,
// and their noise must not end a sweep), each of the last two doublings of the size raised
// busbw by less than `gain` (10 %). `busbw` holds the points of a doubling sweep in order, the
// last one at `bytes`.
bool bandwidth_bound(const std::vector<double>& busbw, std::uint64_t bytes,
                     std::uint64_t from_bytes = 1 << 20, double gain = 0.10);

// The time limit of a point: its share of what is left of the case's budget (`left_s` over
// the `points_left` sizes still to measure, this one included), at most the criteria's
// `timeout`, yet long enough for the rule's `min_samples` of `sample_s` each (with a quarter
// to spare) as far as the budget left allows. `left_s` 0: no budget.
double point_limit_s(double sample_s, std::size_t min_samples, double timeout, double left_s,
                     std::size_t points_left);

class sweep_guard {
 public:
  // `planned`: the sizes the sweep would measure, in bytes, as the operation takes them.
  sweep_guard(core::case_state& state, transports::process_group& group,
              std::vector<std::uint64_t> planned);

  // Before the size `bytes`: true on every rank when the case's budget is spent (one rank's
  // clock is enough: the ranks must sweep the same sizes).
  bool over_budget(std::uint64_t bytes);
  // The limit of the point at `bytes` whose samples take `sample_s` each.
  double point_limit(std::uint64_t bytes, double sample_s) const;
  // After the size `bytes` measured `busbw`: true when the quick sweep ends here.
  bool bandwidth_bound(std::uint64_t bytes, double busbw);

 private:
  double spent_s() const;
  void stopped(std::uint64_t last_bytes, const std::string& why);

  core::case_state& m_state;
  transports::process_group& m_group;
  double m_budget_s = 0;
  bool m_quick = false;                  // the quick sweep (--quick without --sizes)
  std::vector<std::uint64_t> m_planned;  // the sizes the sweep would measure
  std::uint64_t m_last = 0;              // the last size measured
  std::vector<double> m_busbw;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace gpubench::benchmarks::collectives

// How far a run is and how long it has left. Each case has a time budget: its points times the
// hard limit of one point (stopping_criteria::timeout), an upper bound. What is left is the
// remaining cases' budgets scaled by how the finished cases compared with theirs, so the
// estimate starts as a bound and becomes a forecast as the run goes on.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/benchmark.hpp"
#include "core/run_context.hpp"

namespace gpubench::core {

// The time budget a case of `def` sets itself (--quick: the quick one); 0 when it sets none.
double case_time_budget_s(const benchmark_def& def, const run_context& ctx);
// Seconds a case of `def` takes when its points keep to their limit: its sizes times the limit
// of one point, at most its own budget. What progress lines estimate from (a point whose
// samples are slow may take longer, within the case's own budget).
double case_budget_s(const benchmark_def& def, const run_context& ctx);

class progress_estimate {
 public:
  // One budget per case in run order (0 for a case that will not run: skipped).
  explicit progress_estimate(std::vector<double> budgets);

  // Case `index` took `seconds` (a skipped case: 0).
  void finished(std::size_t index, double seconds);
  // Seconds the cases not yet finished will take, as estimated now.
  double left_s() const;
  // True once a case with a budget has finished (the estimate is a forecast, not a bound).
  bool calibrated() const { return m_spent_budget > 0; }
  std::size_t total() const { return m_budgets.size(); }

 private:
  std::vector<double> m_budgets;
  std::vector<bool> m_done;
  double m_spent_budget = 0;  // budgets of the finished cases
  double m_spent_time = 0;    // what they took
};

// A duration for a progress line: "45 s", "3:07", "1:02:03".
std::string format_duration(double seconds);

// "12 s elapsed, about 3:07 left" (or "at most" before any case has finished).
std::string progress_time_text(double elapsed_s, const progress_estimate& estimate);

}  // namespace gpubench::core

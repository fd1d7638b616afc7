// The stopping rule of a measured point (nvbench's stdrel): enough samples and time, then
// stop once the median is stable, or at the timeout. Pure logic, fed by the runner.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace gpubench::core {

struct stopping_criteria {
  std::size_t min_samples = 10;
  double min_time = 0.05;    // seconds of timed samples before noise may stop a point
  double max_noise = 0.005;  // relative standard error of the median
  double timeout = 5.0;      // seconds per point, the hard limit
  std::size_t max_samples = 1'000'000;
  std::size_t warmup_samples = 2;  // never counted
  // Seconds a whole case may take (0: its points' timeouts only); --quick takes the quick one
  // when set. A benchmark whose points may each outlast `timeout` (a slow link) keeps to it.
  double case_budget = 0;
  double quick_case_budget = 0;
};

// consensus: another MPI rank's rule stopped the point first.
enum class stop_reason { noise, timeout, max_samples, interrupted, consensus };

std::string_view to_string(stop_reason r);

class stopping_rule {
 public:
  explicit stopping_rule(stopping_criteria c) : m_criteria(c) {}

  // One more sample's value, and the wall time in seconds since the first timed sample
  // began. Returns why to stop, or nothing to go on.
  std::optional<stop_reason> add(double value, double elapsed);

  // The last computed relative noise of the median (+inf before it was computed).
  double noise() const { return m_noise; }
  const std::vector<double>& values() const { return m_values; }

 private:
  stopping_criteria m_criteria;
  std::vector<double> m_values;
  std::size_t m_next_check = 0;
  double m_noise = std::numeric_limits<double>::infinity();
};

}  // namespace gpubench::core

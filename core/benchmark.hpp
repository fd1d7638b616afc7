// What a benchmark is: its identity, metric, cases and sizes, its requirement, and a body
// that sets up and states what one sample is. The runner (runner.hpp) does the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kind.hpp"
#include "core/run_context.hpp"
#include "core/stopping.hpp"

namespace gpubench::core {

class case_state;

struct metric_info {
  std::string name;  // "bandwidth" | "latency"
  std::string unit;  // "GB/s" | "us"
  bool higher_is_better = true;
};

inline metric_info bandwidth_metric() {
  return {"bandwidth", "GB/s", true};
}
inline metric_info latency_metric() {
  return {"latency", "us", false};
}

// Whether a benchmark can run here; when not, `reason` says what is missing, in the form
// "needs a CUDA device: none found".
struct requirement_status {
  bool met = true;
  std::string reason;
  static requirement_status ok() { return {}; }
  static requirement_status missing(std::string why) { return {false, std::move(why)}; }
};

// The default message-size sweep: powers of two from min to max; --quick stops at quick_max.
struct size_sweep {
  std::uint64_t min = 0;  // 0: the benchmark has no size axis (one point at 0 bytes)
  std::uint64_t max = 0;
  std::uint64_t quick_max = 0;
};

// A named parameter axis; cases are the cartesian product of all axes.
struct axis {
  std::string name;
  std::vector<nlohmann::json> values;
};

// All combinations of the axes' values, as JSON objects {name: value, ...}.
std::vector<nlohmann::json> cartesian(const std::vector<axis>& axes);

struct benchmark_def {
  std::string id;                   // stable, e.g. "memory.host.copy"
  std::vector<std::string> suites;  // "memory", "gpu", "network", "collectives"
  std::string description;          // one line
  measure_kind kind;                // what it measures; written into every case
  metric_info metric;
  size_sweep sizes;
  stopping_criteria criteria;
  // Checked before the run (and by `list`); unmet means every case is recorded as skipped.
  std::function<requirement_status(const run_context&)> requirement;
  // The cases to run, as parameter objects; unset means one case with no parameters.
  std::function<std::vector<nlohmann::json>(const run_context&)> cases;
  std::function<void(case_state&)> body;
};

}  // namespace gpubench::core

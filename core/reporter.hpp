// The reporter contract: told about a run as it happens; formats, never computes statistics.
#pragma once

#include <cstddef>
#include <string>

#include "core/result.hpp"

namespace gpubench::core {

// Where a run is when a case starts.
struct run_position {
  std::size_t index = 0;  // of this case, from 0
  std::size_t total = 0;  // cases in the run
  std::string time_text;  // "12 s elapsed, about 3:07 left" (core/progress.hpp)
};

class reporter {
 public:
  virtual ~reporter() = default;
  virtual void run_started(const result_file&) {}
  virtual void case_started(const case_result&, const run_position&) {}
  virtual void point_finished(const case_result&, const point_result&) {}
  virtual void case_finished(const result_file&, const case_result&) {}
  virtual void run_finished(const result_file&) {}
};

}  // namespace gpubench::core

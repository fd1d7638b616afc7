// The reporter contract: told about a run as it happens; formats, never computes statistics.
#pragma once

#include "core/result.hpp"

namespace gpubench::core {

class reporter {
 public:
  virtual ~reporter() = default;
  virtual void run_started(const result_file&) {}
  virtual void case_started(const case_result&, std::size_t index, std::size_t total) {
    (void)index;
    (void)total;
  }
  virtual void point_finished(const case_result&, const point_result&) {}
  virtual void case_finished(const result_file&, const case_result&) {}
  virtual void run_finished(const result_file&) {}
};

}  // namespace gpubench::core

// Console output of a run: a live progress line per case on a terminal, and a summary table
// in the columns of nccl-tests and perftest at the end.
#pragma once

#include <cstdio>

#include "core/reporter.hpp"

namespace gpubench::core {

class console_reporter final : public reporter {
 public:
  // progress: a line per case on `progress_out` (a terminal, not --quiet); the table goes to
  // `table_out`.
  console_reporter(std::FILE* table_out, std::FILE* progress_out, bool progress)
      : m_table(table_out), m_progress_out(progress_out), m_progress(progress) {}

  void case_started(const case_result& c, std::size_t index, std::size_t total) override;
  void point_finished(const case_result& c, const point_result& p) override;
  void case_finished(const result_file& file, const case_result& c) override;
  void run_finished(const result_file& file) override;

 private:
  std::FILE* m_table;
  std::FILE* m_progress_out;
  bool m_progress;
  std::size_t m_index = 0, m_total = 0;
};

}  // namespace gpubench::core

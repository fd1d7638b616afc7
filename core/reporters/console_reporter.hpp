// Console output of a run: progress (one updating line on a terminal, a plain line per case
// when the output is a file or a pipe), and a summary table in the columns of nccl-tests and
// perftest at the end.
#pragma once

#include <cstdio>

#include "core/reporter.hpp"

namespace gpubench::core {

enum class progress_style {
  none,   // --quiet
  live,   // a terminal: one line, rewritten as the case goes on
  lines,  // a file or a pipe: one plain line as each case starts
};

class console_reporter final : public reporter {
 public:
  // Progress goes to `progress_out`, the table to `table_out`.
  console_reporter(std::FILE* table_out, std::FILE* progress_out, progress_style progress)
      : m_table(table_out), m_progress_out(progress_out), m_progress(progress) {}

  void case_started(const case_result& c, const run_position& at) override;
  void point_finished(const case_result& c, const point_result& p) override;
  void case_finished(const result_file& file, const case_result& c) override;
  void run_finished(const result_file& file) override;

 private:
  std::FILE* m_table;
  std::FILE* m_progress_out;
  progress_style m_progress;
  std::size_t m_index = 0, m_total = 0;
  std::string m_time;  // the position's time text
};

}  // namespace gpubench::core

// Keeps the result file on disk current: rewritten atomically after every finished case, so
// an interrupted run leaves a valid file with status "partial". It writes through a
// partial_file, which then holds the run as far as it got (points of the case in progress
// included) for a write from another thread.
#pragma once

#include <filesystem>

#include "core/partial_file.hpp"
#include "core/reporter.hpp"

namespace gpubench::core {

class json_file_reporter final : public reporter {
 public:
  explicit json_file_reporter(partial_file& file) : m_file(file) {}
  void run_started(const result_file& file) override { m_file.write(file); }
  void case_started(const case_result& c, const run_position&) override {
    m_file.note(c, false);
  }
  void point_finished(const case_result& c, const point_result&) override { m_file.note(c, false); }
  void case_finished(const result_file& file, const case_result&) override { m_file.write(file); }
  void run_finished(const result_file& file) override { m_file.write(file); }
  const std::filesystem::path& path() const { return m_file.path(); }

 private:
  partial_file& m_file;
};

}  // namespace gpubench::core

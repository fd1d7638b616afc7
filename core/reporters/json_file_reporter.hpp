// Keeps the result file on disk current: rewritten atomically after every finished case, so
// an interrupted run leaves a valid file with status "partial".
#pragma once

#include <filesystem>

#include "core/reporter.hpp"

namespace gpubench::core {

class json_file_reporter final : public reporter {
 public:
  explicit json_file_reporter(std::filesystem::path path) : m_path(std::move(path)) {}
  void run_started(const result_file& file) override { write(file); }
  void case_finished(const result_file& file, const case_result&) override { write(file); }
  void run_finished(const result_file& file) override { write(file); }
  const std::filesystem::path& path() const { return m_path; }

 private:
  void write(const result_file& file);
  std::filesystem::path m_path;
};

}  // namespace gpubench::core

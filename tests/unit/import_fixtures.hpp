// Reading the importers' test inputs: the project's own small fixtures (tests/golden/import)
// and, where the checkout has it beside it, the shared folder of real tools' output.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "core/result.hpp"
#include "reports/import/importers.hpp"

namespace gpubench::test_import {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::filesystem::path own(const std::string& name) {
  return std::filesystem::path(GPUBENCH_TEST_DATA) / "import" / name;
}

// The real outputs live beside the checkout (<repo>/../shared/fixtures/real); absent: skip.
inline std::optional<std::filesystem::path> real_folder() {
  const auto p =
      std::filesystem::path(GPUBENCH_SOURCE_ROOT) / ".." / "shared" / "fixtures" / "real";
  if (std::filesystem::is_directory(p)) return p;
  return std::nullopt;
}

// The real outputs added later (<repo>/../shared/fixtures/real-new); absent: skip.
inline std::optional<std::filesystem::path> real_new_folder() {
  const auto p =
      std::filesystem::path(GPUBENCH_SOURCE_ROOT) / ".." / "shared" / "fixtures" / "real-new";
  if (std::filesystem::is_directory(p)) return p;
  return std::nullopt;
}

// A real file's text after its "source: / machine: / notes:" block and the "---" line.
inline std::string real_output(const std::filesystem::path& p) {
  const std::string text = read_text(p);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line =
        text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    if (line == "---" || line == "---\r") return text.substr(at);
  }
  return {};
}

inline core::result_file import_own(const std::string& name, const std::string& op = {}) {
  reports::import::import_options o;
  o.name = name;
  o.operation = op;
  return reports::import::import_text(read_text(own(name)), o);
}

}  // namespace gpubench::test_import

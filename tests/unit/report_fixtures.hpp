// The report fixtures under tests/golden/reports, loaded as `gpubench report` loads files.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <vector>

#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::fixture_files {

inline const std::filesystem::path& fixtures() {
  static const std::filesystem::path dir = std::filesystem::path(GPUBENCH_TEST_DATA) / "reports";
  return dir;
}

inline std::vector<model::run_input> load(std::initializer_list<const char*> names) {
  std::vector<std::filesystem::path> paths;
  for (const char* n : names)
    paths.push_back(fixtures() / n);
  return model::load_runs(paths);
}

}  // namespace gpubench::reports::fixture_files

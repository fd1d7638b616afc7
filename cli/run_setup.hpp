// Pieces of a run's set-up: the run id and the default result path.
#pragma once

#include <filesystem>
#include <string>

namespace gpubench::cli {

std::string make_run_id(const std::string& host);
std::filesystem::path default_result_path(const std::string& suite, const std::string& host);
// Throws usage_error when the result file cannot be written at `out` (its directory cannot be
// made or written, or `out` is a directory): checked before anything runs. `option` names it.
void check_result_path(const std::filesystem::path& out, const std::string& option = "--out");
// Rank 0's last step with --metrics: the run's headline figures from its result file `out`
// written to `metrics` (OpenMetrics). Returns `code`, or 1 for a run that succeeded but whose
// metrics could not be written (said on stderr). Nothing without --metrics or on other ranks.
int write_run_metrics(const std::string& metrics, const std::filesystem::path& out, int code);
// This program's path, so a benchmark can launch it again (under mpirun).
std::string self_executable();

}  // namespace gpubench::cli

// Pieces of a run's set-up: the system block, the run id and the default result path.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/registry.hpp"

namespace gpubench::cli {

// The machine (core probe) plus what each benchmark family adds (GPUs, RDMA, ...).
nlohmann::json describe_system(const core::registry& registry);
std::string make_run_id(const std::string& host);
std::filesystem::path default_result_path(const std::string& suite, const std::string& host);
// Throws usage_error when the result file cannot be written at `out` (its directory cannot be
// made or written, or `out` is a directory): checked before anything runs.
void check_result_path(const std::filesystem::path& out);
// This program's path, so a benchmark can launch it again (under mpirun).
std::string self_executable();

}  // namespace gpubench::cli

// JSON form of the result model: writing, and reading with errors that name the file and
// the field ("run.json: results[2].points[0].stats.median: expected a number").
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::core {

nlohmann::json to_json(const result_file& file);

// One case of "results" (also a cluster node's results): its JSON form, and back with errors
// prefixed with `path` ("results[3]").
nlohmann::json case_to_json(const case_result& c);
case_result case_from_json(const nlohmann::json& j, const std::string& path);

// Validates and converts; throws input_error prefixed with `origin`.
result_file result_from_json(const nlohmann::json& j, const std::string& origin);

// Reads and validates a result file; throws input_error naming the file.
result_file read_result_file(const std::filesystem::path& path);

// Writes to a temporary file in the same directory, flushes it to disk (unless `sync` is false:
// a write racing a SIGKILL, where a process's end, not a power cut, is the danger), then renames
// it over `path`, so a reader never sees a half-written file. Throws std::runtime_error.
void write_file_atomically(const std::filesystem::path& path, const std::string& content,
                           bool sync = true);

void write_result_file(const std::filesystem::path& path, const result_file& file,
                       bool sync = true);

// Current time as RFC 3339 UTC ("2026-11-22T06:44:49Z").
std::string rfc3339_now();

}  // namespace gpubench::core

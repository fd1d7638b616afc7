// Parsing of JSON input files that refuses what nlohmann::json::parse lets through silently:
// a key given twice in one object (parse keeps the last, so two readers could disagree).
#pragma once

#include <filesystem>
#include <istream>
#include <string>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// Parses `in`; throws input_error prefixed with `origin` for invalid JSON ("not valid JSON
// (truncated or corrupt): ...") or a duplicate key ("duplicate key 'results[0].benchmark'").
nlohmann::json parse_json_strict(std::istream& in, const std::string& origin);

// Opens `path` and parses it as above; throws input_error naming the file when it is a
// directory, cannot be opened, or holds nothing but white space ("empty file").
nlohmann::json read_json_file_strict(const std::filesystem::path& path);

}  // namespace gpubench::core

// Parsing of JSON input files that refuses what nlohmann::json::parse lets through silently:
// a key given twice in one object (parse keeps the last, so two readers could disagree).
#pragma once

#include <filesystem>
#include <functional>
#include <istream>
#include <string>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// Takes each element of the top-level array named `key` as soon as it is parsed, which is
// then left out of the document: a large "results" array is never held whole as JSON.
struct element_sink {
  std::string key;
  std::function<void(std::size_t index, nlohmann::json& element)> take;
};

// Parses `in`; throws input_error prefixed with `origin` for invalid JSON ("not valid JSON
// (truncated or corrupt): ...") or a duplicate key ("duplicate key 'results[0].benchmark'").
nlohmann::json parse_json_strict(std::istream& in, const std::string& origin,
                                 const element_sink* sink = nullptr);

// Opens `path` and parses it as above; throws input_error naming the file when it is a
// directory, cannot be opened, or holds nothing but white space ("empty file").
nlohmann::json read_json_file_strict(const std::filesystem::path& path,
                                     const element_sink* sink = nullptr);

}  // namespace gpubench::core

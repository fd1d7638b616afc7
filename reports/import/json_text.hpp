// Parsing another tool's JSON output: a syntax error names the line it is on, as the text
// importers do.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// The parsed document; throws core::input_error "FILE:LINE: expected JSON (...)".
nlohmann::json parse_json_text(std::string_view text, const import_options& o);

// The member `key` of `j` of the wanted type, or a core::input_error naming `where.key`.
const nlohmann::json& member(const nlohmann::json& j, const char* key, nlohmann::json::value_t type,
                             const import_options& o, std::string_view where);

// The member `key` of `j` where it is a string; "" otherwise (absent, or of another type).
std::string string_or_empty(const nlohmann::json& j, const char* key);

}  // namespace gpubench::reports::import

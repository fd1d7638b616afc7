// nvbandwidth's JSON output (-j, v0.5 and later; docs/import.md): version, driver and each
// testcase's matrix, whose cells nvbandwidth writes as strings ("370.9", "N/A").
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// nvbandwidth's document is an object whose first (and only) key is this.
inline constexpr const char* nvbandwidth_json_key = "nvbandwidth";

// Throws core::input_error naming the field that is missing or malformed.
core::result_file parse_nvbandwidth_json(const nlohmann::json& j, const import_options& o);

}  // namespace gpubench::reports::import

// nccl-tests' JSON output (-J FILE.json, nccl-tests 2.17 and later; docs/import.md): the
// command line, the devices, each size's out-of-place and in-place figures and, with -I, the
// per-iteration statistics and every process's per-iteration times.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// nccl-tests' document starts with the key "version" (its file format's); "nccl_version" and
// "results" tell it from other documents that start so.
inline constexpr const char* nccl_tests_json_key = "version";
inline constexpr const char* nccl_tests_json_mark = "\"nccl_version\"";

// Throws core::input_error naming the field that is missing or malformed.
core::result_file parse_nccl_tests_json(const nlohmann::json& j, const import_options& o);

}  // namespace gpubench::reports::import

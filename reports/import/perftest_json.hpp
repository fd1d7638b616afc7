// perftest's JSON output (--out_json, perftest 4.5 and later; docs/import.md): "test_info" and
// "results" of the one report the file keeps, repaired where perftest writes invalid JSON
// (unquoted keys and values before 2022, "sl:" and a trailing comma in some report modes) and
// read as a sequence where several reports were joined into one file.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// Whether the text looks like perftest's JSON: an object whose first key is test_info, quoted
// or not.
bool looks_like_perftest_json(std::string_view text);

// The text made valid JSON: keys and bare words quoted, trailing commas dropped, one line a
// key as perftest writes it. Valid JSON passes unchanged in meaning.
std::string repair_perftest_json(std::string_view text);

// One case per report in the file. Throws core::input_error naming the report and field.
core::result_file parse_perftest_json(std::string_view text, const import_options& o);

}  // namespace gpubench::reports::import

// nvbandwidth's text output (v0.2 to v0.8 read; docs/import.md): version and driver lines,
// the device lines, and each "Running <testcase>." block with its matrix and SUM line.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// Whether the text looks like nvbandwidth's text output.
bool looks_like_nvbandwidth_text(std::string_view text);

// Throws core::input_error naming the line where a block is cut short or malformed.
core::result_file parse_nvbandwidth_text(std::string_view text, const import_options& o);

}  // namespace gpubench::reports::import

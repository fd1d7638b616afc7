// The renderings of a comparison: text for a terminal, Markdown for a pull-request comment,
// JSON for tools, JUnit XML for CI systems. They format the model; they compute nothing.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "reports/compare/comparison.hpp"

namespace gpubench::reports::compare {

enum class output_format { text, md, json, junit };

// "text", "md", "json", "junit"; throws core::usage_error for anything else.
output_format parse_output_format(std::string_view name);

inline constexpr const char* comparison_schema_id = "gpubench.compare/1";

// A table, regressions first; ANSI colours only when `color` (the caller checks for a TTY).
std::string format_text(const comparison& c, bool color);

// Summary line, a table of what changed, the unremarkable rows folded in a <details> block.
std::string format_markdown(const comparison& c);

// gpubench.compare/1: options, summary counts and every row; non-finite numbers are null.
nlohmann::json to_json(const comparison& c);
std::string format_json(const comparison& c);

// One <testcase> per row: <failure> for a regression, <skipped> for what was not compared.
std::string format_junit(const comparison& c);

std::string render(const comparison& c, output_format format, bool color);

}  // namespace gpubench::reports::compare

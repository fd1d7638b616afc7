// What every importer of another tool's text output shares: the text as numbered lines, fields
// split on blanks, strict numbers, the error that names file and line, and the pieces of a
// result file built from values that tool printed (never samples it did not print).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpubench::reports::import {

// What an importer is told besides the text.
struct import_options {
  std::string name;       // the file, as errors and the case's source name it
  std::string operation;  // nccl-tests: the operation, when the log does not name it (--op)
};

struct text_line {
  std::size_t number = 0;  // 1-based, as an editor shows it
  std::string_view text;   // without the line end (\n, \r\n)
};

// The text as lines; a last line without its line end is kept.
std::vector<text_line> split_lines(std::string_view text);

// Blank-separated fields (spaces and tabs).
std::vector<std::string_view> split_fields(std::string_view line);

std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);

// A whole field as a number: finite, within core::plausible_limit, nothing left over; nullopt
// otherwise.
std::optional<double> to_number(std::string_view field);
std::optional<std::uint64_t> to_count(std::string_view field);

// The text with each byte that is not part of valid UTF-8 replaced by '?': names and values a
// log carries become JSON strings, which must be UTF-8 (line numbers stay as they were).
std::string valid_utf8(std::string_view text);

// The host of a shell prompt before a command ("root@node-7:~/dir# ib_write_bw ..." ->
// "node-7"); empty when the text before the command is no such prompt.
std::string prompt_host(std::string_view before_command);

// Throws core::input_error "FILE:LINE: expected WHAT, found 'TEXT'" (exit 2). Line 0: the
// whole file ("FILE: expected ...", for input that ends too early or holds nothing).
[[noreturn]] void fail(const import_options& o, std::size_t line, std::string_view expected,
                       std::string_view found = {});

// A file of imported cases: tool, run (complete, argv of the import), an empty system block.
core::result_file imported_file(const import_options& o);

// A case of `kind` read from `tool`'s output, with its provenance; no points yet.
core::case_result imported_case(std::string benchmark, core::measure_kind kind,
                                const core::import_source& source, bool higher_is_better);

// One point from the values the tool printed for it (one value, or one per repeated line):
// the values are the samples, nothing is added.
core::point_result point_of(std::uint64_t bytes, const std::vector<double>& values);

}  // namespace gpubench::reports::import

// The one list of importers (DESIGN.md: each kind of plug-in registers in one place), how a
// file's format is recognised, and reading any file a report or compare is given: a gpubench
// result file as it is, another tool's output through its importer.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// The formats read: "gpubench", "nccl-tests", "nccl-tests-json", "nvbandwidth",
// "nvbandwidth-json", "perftest", "perftest-json", "iperf3"; empty when none matches.
std::string detect_format(std::string_view text);

// The names of the formats importers read (for help and errors).
std::vector<std::string> import_formats();

// Another tool's output, as a result file. Throws core::input_error (exit 2) naming the file,
// the line and what was expected, also when the format is not recognised.
core::result_file import_text(std::string_view text, const import_options& o);

// Reads a file: a gpubench result file (core::read_result_file) or another tool's output.
core::result_file load_result(const std::filesystem::path& path, const import_options& o = {});

// Several imported files as one result file (gpubench import A B --out RUN.json): the cases of
// all of them, the system block of the first that describes one. Throws core::input_error when
// two files hold the same case (they are two runs: import them apart).
core::result_file merge_imports(const std::vector<core::result_file>& files,
                                const std::vector<std::string>& names);

}  // namespace gpubench::reports::import

// The result files a report is made of: read, checked against each other, and labelled.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpubench::reports::model {

// Up to this many runs are set side by side (a table column, a chart's series each); a report
// of more sums them up by their range and draws its views from the first run.
inline constexpr std::size_t side_by_side_runs = 4;

struct run_input {
  std::filesystem::path path;
  core::result_file file;
  std::string label;  // how the report names this run: its host, made unique
};

// Reads every file: a result file (core::read_result_file) or another tool's output, imported
// (import::load_result); throws core::input_error naming the file when one
// is missing, empty, truncated or of the wrong schema, or when two files cannot be reported
// together (the same run twice, or one benchmark id measured in different units).
// `operation`: the nccl-tests operation of a log that names none (report --op).
std::vector<run_input> load_runs(const std::vector<std::filesystem::path>& paths,
                                 const std::string& operation = {});

// The tools an imported run was read from, with their versions where the output names them
// ("nccl-tests 2.18.5, nvbandwidth v0.8"); empty for a run gpubench measured.
std::string imported_from(const core::result_file& file);

// Checks files already in memory (what load_runs does after reading) and sets their labels.
void check_and_label(std::vector<run_input>& runs);

}  // namespace gpubench::reports::model

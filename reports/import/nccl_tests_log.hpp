// An nccl-tests run as its text log or its -J JSON says it: the devices, the table's rows and
// what NCCL's INFO lines added; and the cases made of it, whichever of the two it came from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// "#  Rank  0 Group  0 Pid 6899 on host device  0 [0000:04:00] NVIDIA H100 80GB HBM3"
struct nccl_device {
  int rank = 0;
  std::string host;
  int device = 0;
  std::string bus;
  std::string name;
};

// One placement's figures of a row.
struct nccl_figures {
  double time_us = 0, algbw = 0, busbw = 0;
  std::optional<std::uint64_t> wrong;               // none: N/A (validation off)
  nlohmann::json extra = nlohmann::json::object();  // -I: the per-iteration statistics
};

struct nccl_size_row {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type, redop;
  std::optional<long long> root;
  std::vector<nccl_figures> groups;  // out-of-place, then in-place
};

struct nccl_log {
  core::import_source src;
  std::string op;    // nccl-tests' name, where the log names it; empty: --op, file, the table
  std::string nccl;  // the library's version
  std::vector<nccl_device> devices;
  std::vector<nccl_size_row> rows;
  std::size_t groups = 2;
  std::optional<double> avg_busbw;
  nlohmann::json context = nlohmann::json::object();  // NCCL's INFO lines: network, GDR, ...
  std::size_t last_line = 0;                          // for errors: where the log ends
};

// The cases: one per placement, each size a point whose value is the busbw printed. Where the
// log names no operation: --op, the file name, then the table (nccl_tests_infer.hpp); none
// fits: core::input_error asking for --op.
core::result_file nccl_log_result(nccl_log log, const import_options& o);

}  // namespace gpubench::reports::import

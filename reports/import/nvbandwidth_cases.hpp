// nvbandwidth's testcases, from its text or its JSON output alike: each matrix cell becomes a
// host-GPU or GPU-GPU case by what the testcase name and the matrix title say it measured.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

struct nvbandwidth_device {
  int index = 0;
  std::string name;
  std::string bus;   // PCI bus id, where the output prints it (v0.6 and later)
  std::string host;  // multinode: the process's host
};

struct nvbandwidth_test {
  std::string name;   // "device_to_device_memcpy_read_ce"
  std::string part;   // one matrix of several (bidirectional: "read1", "read2", "total"); or ""
  int run = 0;        // which run of a file holding several (0: the file holds one)
  std::string title;  // "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"
  std::vector<std::vector<std::optional<double>>> cells;  // N/A: none
  std::optional<double> sum;
  std::string status;        // "" or "Passed"; "Waived", "Error", ...: not measured
  std::string message;       // what nvbandwidth said with that status, where it said it
  std::optional<double> cv;  // COEFFICIENT_OF_VARIATION (v0.10)
  std::size_t line = 0;
};

struct nvbandwidth_run {
  std::string version, git, driver, cuda_runtime, command;
  std::string prompt_host;  // the host of a shell prompt before the command, where one is
  std::vector<nvbandwidth_device> devices;
  std::vector<nvbandwidth_test> tests;
};

// The cases of a parsed run. Throws core::input_error when a testcase is not one a cell of it
// can be read from (an unknown matrix title).
core::result_file nvbandwidth_result(const nvbandwidth_run& run, const import_options& o);

}  // namespace gpubench::reports::import

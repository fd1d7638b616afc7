// perftest's text output (ib_write_bw, ib_read_bw, ib_send_bw and their _lat tools; docs/
// import.md): the title, the header of "key : value" settings and the result table.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// What a title line says ("RDMA_Write Post List BW Test").
struct title_info {
  std::string op;  // write, read, send, atomic
  bool latency = false;
  bool post_list = false;  // a message-rate run
};

// One run of a perftest tool, from its text (a terminal session holds several) or its JSON.
struct perftest_run {
  title_info title;
  std::size_t line = 0;                         // of the title
  std::map<std::string, std::string> settings;  // as the text names them ("Number of qps")
  std::optional<double> factor;                 // the bandwidth column's unit in GB/s
  std::string command, tool;
  std::map<std::uint64_t, std::vector<std::vector<double>>> rows;  // bytes -> rows as printed
  bool table = false, closed = false;
};

// The case of one run: bandwidth, latency, or (a post list) message rate.
core::case_result perftest_case(const perftest_run& run, const import_options& o);

// Whether the text looks like perftest output (a "... BW Test" or "... Latency Test" title).
bool looks_like_perftest(std::string_view text);

// One RDMA network case; throws core::input_error naming the line.
core::result_file parse_perftest(std::string_view text, const import_options& o);

}  // namespace gpubench::reports::import

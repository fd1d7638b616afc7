// perftest's text output (ib_write_bw, ib_read_bw, ib_send_bw and their _lat tools; docs/
// import.md): the title, the header of "key : value" settings and the result table.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// Whether the text looks like perftest output (a "... BW Test" or "... Latency Test" title).
bool looks_like_perftest(std::string_view text);

// One RDMA network case; throws core::input_error naming the line.
core::result_file parse_perftest(std::string_view text, const import_options& o);

}  // namespace gpubench::reports::import

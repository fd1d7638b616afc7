// nccl-tests' *_perf text output (docs/import.md): the header, the device lines, the table of
// out-of-place and in-place figures per size and the average footer, into collective cases.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// Whether the text looks like nccl-tests output (its table header or its nThread line).
bool looks_like_nccl_tests(std::string_view text);

// The operation's nccl-tests name ("all_reduce") from what a user or a log may write:
// "all_reduce", "allreduce", "all_reduce_perf"; empty when it names none.
std::string nccl_tests_operation(std::string_view name);

// One case per operation and placement (out-of-place, in-place); each size a point whose value
// is the bus bandwidth the log printed. Throws core::input_error naming the line.
core::result_file parse_nccl_tests(std::string_view text, const import_options& o);

}  // namespace gpubench::reports::import

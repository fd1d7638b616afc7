// iperf3's JSON output (-J; docs/import.md): the connection, the test settings, the intervals,
// the sums and the CPU utilisation, into one TCP (or UDP) network case.
#pragma once

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "reports/import/import_text.hpp"

namespace gpubench::reports::import {

// iperf3 -J writes "start" first, then "intervals" and "end".
inline constexpr const char* iperf3_json_key = "start";

// Throws core::input_error naming the field that is missing or malformed, or iperf3's own error.
core::result_file parse_iperf3(const nlohmann::json& j, const import_options& o);

}  // namespace gpubench::reports::import

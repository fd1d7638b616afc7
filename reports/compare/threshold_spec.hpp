// Parsing of --threshold values: "5%" for every benchmark, "net.tcp.latency=10%" for one id,
// "net.tcp.*=10%" for a family.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/compare/comparison.hpp"

namespace gpubench::reports::compare {

// "10%" or "10" is 0.10. Throws core::usage_error naming `what` for anything else, negative
// values included.
double parse_percent(std::string_view text, std::string_view what);

// Applies each spec in order onto `defaults`; a later spec for the same key wins.
// Throws core::usage_error with the offending spec.
thresholds parse_thresholds(const std::vector<std::string>& specs, thresholds defaults = {});

// Benchmark ids and prefixes named by `t` that match none of `known_ids` (typos).
std::vector<std::string> unknown_threshold_keys(const thresholds& t,
                                                const std::vector<std::string>& known_ids);

}  // namespace gpubench::reports::compare

// The report's comparison across runs: every later run against the first, rendered from the
// comparison model of `gpubench compare` (reports/compare), not a second implementation.
#pragma once

#include <optional>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::views {

// Nothing for a single run.
std::optional<model::section> comparison_section(const std::vector<model::run_input>& runs);

}  // namespace gpubench::reports::views

// The measurements as CSV for spreadsheets: one row per point (and one per case that was not
// measured, with its reason), statistics exactly as stored in the result files.
#pragma once

#include <string>
#include <vector>

#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::render {

std::string to_csv(const std::vector<model::run_input>& runs);

}  // namespace gpubench::reports::render

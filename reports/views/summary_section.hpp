// The first part of a report: the systems compared, what ran, and what was skipped or failed.
#pragma once

#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::views {

model::section summary_section(const std::vector<model::run_input>& runs);

// A system block value in one line: scalars as text, objects as "key: value; ...", device
// lists as "8 x name (key=value, ...); name (...)", identical devices counted once.
std::string system_value_text(const nlohmann::json& value);

}  // namespace gpubench::reports::views

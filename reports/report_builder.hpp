// Assembles the report document from result files: summary, one section per benchmark view,
// and the comparison across runs when there are several.
#pragma once

#include <vector>

#include "reports/document.hpp"
#include "reports/references.hpp"
#include "reports/report_inputs.hpp"
#include "reports/report_options.hpp"

namespace gpubench::reports {

document build_report(const std::vector<run_input>& runs, const reference_set& refs,
                      const report_options& options = {});

}  // namespace gpubench::reports

// Assembles the report document from result files. Page one per system (the interconnect
// story: diagram, headline, findings), the training scaling projection, one section per
// benchmark view (charts and compact tables), the comparison across runs, then the appendix:
// the systems and what ran or was skipped, and every point of every view.
#pragma once

#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/references.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/model/report_options.hpp"

namespace gpubench::reports {

model::document build_report(const std::vector<model::run_input>& runs,
                             const model::reference_set& refs,
                             const model::report_options& options = {});

}  // namespace gpubench::reports

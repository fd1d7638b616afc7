// Page one of the report: the interconnect story. For one run the machine diagram with what was
// measured on each link, the headline table, the findings in plain words and the training
// projection in one line; for several, the runs side by side and their findings in one table.
#pragma once

#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/references.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/model/report_options.hpp"
#include "reports/page_one/findings/finding.hpp"

namespace gpubench::reports::page_one {

// One run: its story (run_story). Several: the side-by-side table and the findings of all of
// them in one table. `options`: the projection's inputs, for its one line under the findings.
std::vector<model::section> page_one_sections(const std::vector<model::run_input>& runs,
                                              const model::reference_set& refs,
                                              const model::report_options& options = {});

// One run's page one: its system, diagram, headline, findings and projection line.
model::section run_story(const model::run_input& run, const model::reference_set& refs,
                         const model::report_options& options = {});

// severity | finding | evidence | what to check; empty rows when there are none.
model::table findings_table(const std::vector<findings::finding>& found);

// One line on what the system is: host, CPU, NUMA nodes, GPUs, NICs, virtualization.
std::string system_line(const model::run_input& run);

}  // namespace gpubench::reports::page_one

// Page one of the report, per system: the interconnect story. The machine diagram with what was
// measured on each link, the headline table, and the findings in plain words; with several runs
// a side-by-side table first.
#pragma once

#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/references.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/page_one/findings/finding.hpp"

namespace gpubench::reports {

std::vector<section> page_one_sections(const std::vector<run_input>& runs,
                                       const reference_set& refs);

// severity | finding | evidence | what to check; empty rows when there are none.
table findings_table(const std::vector<findings::finding>& found);

// One line on what the system is: host, CPU, NUMA nodes, GPUs, NICs, virtualization.
std::string system_line(const run_input& run);

}  // namespace gpubench::reports

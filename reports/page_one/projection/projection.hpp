// The training scaling projection: from the measured allreduce times, the step time and
// speedup of a data-parallel job at each measured node count, for a few gradient sizes.
// step(n) = T + allreduce(S, n) x (1 - overlap); speedup(n) = n x step(1) / step(n).
// A model, labelled as one, interpolating only between measured sizes.
#pragma once

#include <optional>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/model/report_options.hpp"

namespace gpubench::reports::page_one::projection {

// The projection section, or nothing when no run measured allreduce at two or more node counts.
std::optional<model::section> projection_section(const std::vector<model::run_input>& runs,
                                                 const model::report_options& options);

}  // namespace gpubench::reports::page_one::projection

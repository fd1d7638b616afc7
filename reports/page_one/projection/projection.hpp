// The training scaling projection: from the measured collectives a strategy needs (selected by
// the kind's operation), the communication per step, step time and speedup of a model at each
// measured node count, and beyond it from an alpha-beta fit, marked as extrapolated.
// step(n) = T + comm(n) x (1 - overlap); speedup(n) = (n / n0) x step(n0) / step(n).
// A model, labelled as one, interpolating only between measured sizes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/model/report_options.hpp"

namespace gpubench::reports::page_one::projection {

// The projection section, or nothing when no run measured a collective at two or more node
// counts. A run that lacks an operation the strategy needs gets a note that says so.
std::optional<model::section> projection_section(const std::vector<model::run_input>& runs,
                                                 const model::report_options& options);

// The projection in one line for page one: the scaling efficiency of the first model the
// measured sizes cover, at each group's largest measured node count; or what the strategy
// needs and the run lacks. Nothing when the run measured no collective at two or more node
// counts.
std::optional<std::string> projection_summary(const model::run_input& run,
                                              const model::report_options& options);

}  // namespace gpubench::reports::page_one::projection

// The alpha-beta fit of the projection, shown beside it: what was fitted, alpha and B per
// group and operation with the residuals over every point fitted, and the fit against the
// measurement at the very sizes the step sends, so the reader sees how far to trust the rows
// marked extrapolated.
#pragma once

#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/report_options.hpp"
#include "reports/page_one/projection/measured_curves.hpp"

namespace gpubench::reports::page_one::projection {

std::vector<model::block> fit_blocks(const std::string& run_label,
                                     const std::vector<strategy_group>& groups,
                                     const model::report_options& options);

}  // namespace gpubench::reports::page_one::projection

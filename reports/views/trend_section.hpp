// The trend section of a report (`report --history STORE`): one chart per series of the store
// that changed, or whose fingerprint did, over its runs in order, the change points and the
// fingerprint events marked; a table of the changes. The statistics come from history/.
#pragma once

#include <string>
#include <vector>

#include "history/analysis.hpp"
#include "reports/model/document.hpp"

namespace gpubench::reports::views {

struct trend_options {
  std::string store;            // how the store is named (its describe())
  bool every_series = false;    // a chart for every series, also those without a change
  std::size_t max_charts = 40;  // more are listed in the table only
};

model::section trend_section(const std::vector<history::series_analysis>& found,
                             const trend_options& options);

}  // namespace gpubench::reports::views

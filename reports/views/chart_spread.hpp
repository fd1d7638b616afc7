// A chart with more lines than colours says nothing: past max_drawn_series, the variants are
// drawn as their spread instead (best, median and worst of all variants at each size), and the
// tables beside the chart still list every variant.
#pragma once

#include <cstddef>
#include <vector>

#include "reports/model/document.hpp"

namespace gpubench::reports::views {

// As many lines as the chart palette has distinct colours.
inline constexpr std::size_t max_drawn_series = 10;

// Three series over every x that some variant has: the best, the median and the worst value of
// the variants measured at that x ("best" by `higher_is_better`). Bands are not kept: a spread
// of medians has no p99. Empty when `variants` is empty.
std::vector<model::chart_series> spread_series(const std::vector<model::chart_series>& variants,
                                               bool higher_is_better);

}  // namespace gpubench::reports::views

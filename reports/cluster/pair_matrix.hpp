// A pair view of a cluster as a heatmap: measured cells only (a sparse sweep leaves the rest
// visibly empty), a directed view as one matrix (row = sender, column = receiver), nodes in
// leaf order with the leaves' boundaries, the suspects marked in red.
#pragma once

#include <cstddef>
#include <vector>

#include "cluster/suspects.hpp"
#include "reports/cluster/node_order.hpp"
#include "reports/cluster/pair_figures.hpp"
#include "reports/model/document.hpp"

namespace gpubench::reports::cluster {

// Above this many nodes a pair matrix is drawn as one raster image with index ticks.
inline constexpr std::size_t raster_above_nodes = 64;

model::heatmap pair_matrix(const core::cluster_section& c, const pair_view& v,
                           const node_order& order,
                           const std::vector<gpubench::cluster::suspect>& suspects);

}  // namespace gpubench::reports::cluster

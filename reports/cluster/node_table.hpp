// The cluster report's table of nodes: each node's status, its own results (the first few
// node-local cases most nodes measured), its median over its pairs per pair view (sending and
// receiving apart where a bandwidth case was measured both ways) and what it is suspected of;
// grouped by leaf switch where the file gives the leaves.
#pragma once

#include <vector>

#include "cluster/suspects.hpp"
#include "reports/cluster/node_order.hpp"
#include "reports/cluster/pair_figures.hpp"
#include "reports/model/document.hpp"

namespace gpubench::reports::cluster {

model::table node_table(const core::cluster_section& c, const std::vector<pair_view>& views,
                        const node_order& order,
                        const std::vector<gpubench::cluster::suspect>& suspects);

}  // namespace gpubench::reports::cluster

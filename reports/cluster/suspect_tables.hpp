// The cluster report's tables of the verdict: the named suspects (grouped by leaf switch where
// the file gives the leaves, a slow uplink with its nodes) and the candidates the second look did
// not reproduce.
#pragma once

#include <cstddef>
#include <vector>

#include "cluster/suspects.hpp"
#include "reports/cluster/node_order.hpp"
#include "reports/model/document.hpp"

namespace gpubench::reports::cluster {

inline constexpr std::size_t max_suspect_rows = 100;

model::table suspects_table(const core::cluster_section& c, const node_order& order,
                            const std::vector<gpubench::cluster::suspect>& suspects);

model::table unconfirmed_table(const std::vector<gpubench::cluster::suspect>& unconfirmed);

}  // namespace gpubench::reports::cluster

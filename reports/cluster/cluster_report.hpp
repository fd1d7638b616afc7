// The cluster part of a report: for each result file with a cluster section, the suspects first
// (with their figures against the cluster median), the pair matrices as heatmaps with the
// suspects marked, and a table of the nodes. docs/cluster.md "The report at scale".
#pragma once

#include <vector>

#include "cluster/suspects.hpp"
#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::cluster {

// Above this many nodes a pair matrix is drawn as one raster image with index ticks.
inline constexpr std::size_t raster_above_nodes = 64;

// No sections when no file has a cluster section.
std::vector<model::section> cluster_sections(
    const std::vector<model::run_input>& runs,
    const gpubench::cluster::suspect_options& options = {});

}  // namespace gpubench::reports::cluster

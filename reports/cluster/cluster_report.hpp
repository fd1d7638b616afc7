// The cluster part of a report: for each result file with a cluster section, how the pairs were
// chosen and the suspects first (with their figures against the cluster median, grouped by leaf
// switch where the file knows them), the pair matrices as heatmaps with the suspects marked, and
// a table of the nodes. docs/cluster.md "The report at scale".
#pragma once

#include <string>
#include <vector>

#include "cluster/suspects.hpp"
#include "reports/cluster/pair_matrix.hpp"
#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::cluster {

// No sections when no file has a cluster section.
std::vector<model::section> cluster_sections(
    const std::vector<model::run_input>& runs,
    const gpubench::cluster::suspect_options& options = {});

// The sections of one file's cluster (which it must have) showing `verdict`: what
// cluster_sections does with the verdict of gpubench::cluster::judge.
std::vector<model::section> cluster_run_sections(
    const std::string& label, const core::result_file& file,
    const gpubench::cluster::cluster_verdict& verdict,
    const gpubench::cluster::suspect_options& options = {});

}  // namespace gpubench::reports::cluster

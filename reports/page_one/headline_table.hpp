// Page one's headline: one row per kind of path (host memory, host<->GPU, GPU<->GPU, TCP, RDMA,
// allreduce) with the figure that answers "is it built right": the slowest GPU or pair, the best
// network case, the allreduce at the most nodes. Several runs share one table side by side.
#pragma once

#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/references.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/page_one/path_figure.hpp"

namespace gpubench::reports::page_one {

struct headline_row {
  std::string key;  // stable: "host_gpu to_gpu bandwidth", "collective allreduce mpi/tcp"
  std::string
      path;  // "Host to GPU (pinned): slowest of 4 (GPU 2)", among host memory local to the GPU
  const core::case_result* result = nullptr;
  path_figure figure;
};

// How many NICs each node sends a collective through, where the case says: an imported log's
// context `nics_per_node`, or the `interfaces` gpubench's own collective went through. 0: unknown.
std::size_t nics_per_node(const core::case_result& c);

// The rows of one run, in a fixed order of paths.
std::vector<headline_row> headline_rows(const model::run_input& run);

// "at line rate" (>= 80 %), "below line rate" (50-80 %), "far below line rate" (< 50 %), or
// against a published reference when the path has no line rate, else "no line rate recorded".
std::string verdict(const path_figure& f, const std::vector<const model::reference_figure*>& refs);

// path | measured | line rate | % of line | published reference | verdict.
model::table headline_table(const model::run_input& run, const model::reference_set& refs);

// Several runs: path | one column per run | ratio of each later run to the first. More than
// model::side_by_side_runs runs: path | the first run | lowest | median | highest | spread.
model::table side_by_side_table(const std::vector<model::run_input>& runs);

}  // namespace gpubench::reports::page_one

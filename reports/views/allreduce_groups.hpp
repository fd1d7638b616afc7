// The measured allreduce of one run, grouped for scaling questions: one group per combination
// of parameters other than the node count (backend, transport, dtype, placement), its cases
// ordered by node count. Read by the findings and the training scaling projection.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::reports::views {

struct allreduce_group {
  nlohmann::json params;  // the shared parameters (no nodes, no ranks)
  std::string label;      // the parameters that differ between groups: "mpi, tcp"
  std::vector<const core::case_result*> cases;  // by node count, one case per count
};

// Node count of a coll.allreduce case (1 when not recorded).
long long allreduce_nodes(const core::case_result& c);

// Groups of measured coll.allreduce cases. When a group was measured both in place and out of
// place, only out-of-place is kept (the two differ little and would double every table).
std::vector<allreduce_group> allreduce_groups(const core::result_file& f);

// Seconds one allreduce of the point's size took: the recorded time (extra time_us), else the
// median when the metric is a time, else bytes / algbw. Nothing when none is known.
std::optional<double> allreduce_seconds(const core::case_result& c, const core::point_result& p);

}  // namespace gpubench::reports::views

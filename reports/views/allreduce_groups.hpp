// The measured collectives of one run, grouped for scaling questions: per operation (the kind's
// operation: "allreduce", "allgather", ...), one group per combination of parameters other
// than the node count (backend, transport, dtype, placement), its cases ordered by node count.
// Read by the findings (allreduce) and the training scaling projection (every operation).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::reports::views {

struct collective_group {
  nlohmann::json params;  // the shared parameters (no nodes, no ranks)
  std::string label;      // the parameters that differ between groups: "mpi, tcp"
  std::vector<const core::case_result*> cases;  // by node count, one case per count
};
using allreduce_group = collective_group;

// Node count of a collective case (1 when not recorded).
long long collective_nodes(const core::case_result& c);
inline long long allreduce_nodes(const core::case_result& c) {
  return collective_nodes(c);
}
// Ranks of the communicator of a collective case (its node count when not recorded).
long long collective_ranks(const core::case_result& c);

// Groups of measured cases of kind collective with this operation. When a group was measured
// both in place and out of place, only out-of-place is kept (the two differ little and would
// double every table).
std::vector<collective_group> collective_groups(const core::result_file& f,
                                                std::string_view operation);
inline std::vector<allreduce_group> allreduce_groups(const core::result_file& f) {
  return collective_groups(f, "allreduce");
}

// nccl-tests' bus-bandwidth factor of an operation over n ranks (busbw = algbw x factor):
// allreduce 2(n-1)/n; allgather, reduce_scatter, alltoall (n-1)/n; broadcast, sendrecv 1.
// Nothing for an operation it does not know.
std::optional<double> bus_factor(std::string_view operation, double ranks);
// The same factor as a formula for the reader ("2(n-1)/n"); empty for an unknown operation.
std::string bus_factor_text(std::string_view operation);
// The operations of kind collective measured in `f`, in the order they first appear.
std::vector<std::string> collective_operations(const core::result_file& f);

// Seconds one operation of the point's size took: the recorded time (extra time_us), else the
// median when the metric is a time, else bytes / algbw, else bytes x factor / busbw. Nothing
// when none is known.
std::optional<double> collective_seconds(const core::case_result& c, const core::point_result& p);
inline std::optional<double> allreduce_seconds(const core::case_result& c,
                                               const core::point_result& p) {
  return collective_seconds(c, p);
}

}  // namespace gpubench::reports::views

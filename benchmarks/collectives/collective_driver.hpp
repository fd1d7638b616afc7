// The one timed loop of every collective and backend (nccl-tests' common driver): per size
// the operation's data check outside timing (on by default, as nccl-tests' -c 1), an untimed
// operation, one that sizes the samples, then samples as nccl-tests times them: one barrier,
// at least 20 calls back to back (at least 1 ms), each rank's time per call averaged over the
// ranks (min and max kept), handed to case_state::measure_timed; the point is the median of
// the samples, with the stopping decision taken collectively, within the case's time budget
// (sweep_guard.hpp). The operation says what moves and its bus factor; the driver knows no
// operation by name.
#pragma once

#include "benchmarks/collectives/collective_op.hpp"
#include "benchmarks/collectives/scaling.hpp"
#include "core/case_state.hpp"
#include "transports/collective_backend.hpp"
#include "transports/process_group.hpp"

namespace gpubench::benchmarks::collectives {

struct measure_request {
  dtype type = dtype::float32;
  bool in_place = false;
  bool check = true;  // --no-check turns it off
  // Longest a sample may take (0: no limit): a quarter of the stall timeout, so a slow link
  // gets fewer than 20 operations per sample rather than a false stall (and the point says
  // so: extra "min_iterations").
  double sample_limit_s = 0;
};

// Measures every size of the case; throws std::runtime_error when the data check fails and
// core::skip_case when the operation has no bus bandwidth over the backend's ranks. Returns
// this case's row of the scaling table (nodes left for the caller).
scaling_row measure_collective(core::case_state& state, const collective_op& op,
                               transports::collective_backend& backend,
                               transports::process_group& group, const measure_request& request,
                               const transports::progress_fn& progress);

}  // namespace gpubench::benchmarks::collectives

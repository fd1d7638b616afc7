// The one timed loop of every collective and backend (nccl-tests' common driver): per size
// the operation's data check outside timing, an untimed operation, one that sizes the samples,
// then samples of barrier + `iters` calls (at least 1 ms), each sample's time averaged over the
// ranks (a rooted operation's: its slowest rank's; min and max kept) and handed to
// case_state::measure_timed, with the stopping decision taken collectively, within the case's
// time budget (sweep_guard.hpp). The operation says what moves, its bus factor and whether it
// is rooted; the driver knows no operation by name.
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
  bool check = false;
  // Longest a sample may take (0: no limit): a quarter of the stall timeout, so a slow link
  // gets fewer than 20 operations per sample rather than a false stall.
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

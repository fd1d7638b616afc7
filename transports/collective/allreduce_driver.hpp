// The one timed loop of every allreduce backend (nccl-tests' common driver): per size the
// data check outside timing, then samples of barrier + `iters` collectives, each sample's
// time averaged over the ranks (min and max kept) and handed to case_state::measure_timed,
// with the stopping decision taken collectively.
#pragma once

#include <functional>
#include <string>

#include "core/case_state.hpp"
#include "transports/collective/allreduce_backend.hpp"
#include "transports/collective/allreduce_math.hpp"
#include "transports/collective/process_group.hpp"
#include "transports/collective/scaling.hpp"

namespace gpubench::coll {

struct allreduce_request {
  dtype type = dtype::float32;
  bool in_place = false;
  bool check = false;
  // Longest a sample may take (0: no limit): a quarter of the stall timeout, so a slow link
  // gets fewer than 20 operations per sample rather than a false stall.
  double sample_limit_s = 0;
};

// Called after every sample (and before each size) with the work now under way: the
// watchdog's heartbeat under MPI. May be empty.
using progress_fn = std::function<void(const std::string&)>;

// Measures every size of the case; throws std::runtime_error when the data check fails and
// core::skip_case for a single rank (no bus bandwidth). Returns this case's row of the
// scaling table (nodes and ranks left for the caller).
scaling_row measure_allreduce(core::case_state& state, allreduce_backend& backend,
                              process_group& group, const allreduce_request& request,
                              const progress_fn& progress);

}  // namespace gpubench::coll

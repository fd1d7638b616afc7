// The one timed loop of every allreduce backend (nccl-tests' common driver): per size the
// data check outside timing, then samples of barrier + `iters` collectives, each sample's
// time averaged over the ranks (min and max kept) and handed to case_state::measure_timed,
// with the stopping decision taken collectively.
#pragma once

#include "core/case_state.hpp"
#include "transports/collective/allreduce_backend.hpp"
#include "transports/collective/allreduce_math.hpp"
#include "transports/collective/process_group.hpp"
#include "transports/collective/scaling.hpp"
#include "transports/collective/watchdog.hpp"

namespace gpubench::coll {

struct allreduce_request {
  dtype type = dtype::float32;
  bool in_place = false;
  bool check = false;
};

// Measures every size of the case; throws std::runtime_error when the data check fails.
// Returns this case's row of the scaling table (nodes and ranks left for the caller).
scaling_row measure_allreduce(core::case_state& state, allreduce_backend& backend,
                              process_group& group, const allreduce_request& request,
                              watchdog* dog);

}  // namespace gpubench::coll

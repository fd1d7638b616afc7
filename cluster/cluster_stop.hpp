// How cluster mode keeps its deadlines and stops when interrupted (docs/cluster.md, "Every
// phase has a deadline"): the allreduce phase runs under --cluster-timeout too, and rank 0
// looks at the interrupt while it waits for reports and after every step, then tells every
// rank to stop.
#pragma once

#include "core/run_context.hpp"

namespace gpubench::cluster {

// The run context of the allreduce phase: the collectives' stall limit (--coll-timeout) is
// the cluster timeout unless --coll-timeout was given.
core::run_context allreduce_context(const core::run_context& ctx, double cluster_timeout_s);

// For a wait for messages (receive_json's give_up): passes interrupts on between the ranks,
// and says whether this rank is interrupted (rank 0 stops waiting then).
bool interrupted_while_waiting(const core::run_context& ctx);

}  // namespace gpubench::cluster

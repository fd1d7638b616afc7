// What every coll.<op> benchmark shares: the run's MPI and NCCL runtimes, the options
// (--backend, --nodes, --ranks, --dtype, --place, --no-check, --coll-timeout), the cases
// (backend x node count x placement) and the body (self-launched local MPI ranks, NCCL over
// the local GPUs, or one MPI launch's nested sub-communicators with a scaling table). An
// operation's file defines its collective_op; the family's list (collectives.cpp) makes a
// benchmark of each with these parts.
#pragma once

#include <memory>

#include "benchmarks/collectives/collective_op.hpp"
#include "core/registry.hpp"

namespace gpubench::benchmarks::collectives {

// The runtimes of one run (MPI stays initialised across cases and is finalised when the
// registry goes away) and the scaling rows measured so far.
struct collective_session;

// Adds the collectives' options and their software (MPI library, NCCL) to the system block.
std::shared_ptr<collective_session> add_collective_family(core::registry& r);

// The benchmark coll.<op> measuring `op`: its kind (a collective, op's name as its
// operation), sizes, stopping rule, requirement, cases and body.
core::benchmark_def collective_def(std::shared_ptr<collective_session> session,
                                   std::shared_ptr<const collective_op> op);

}  // namespace gpubench::benchmarks::collectives

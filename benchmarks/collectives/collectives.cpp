// The collectives family: one session (MPI and NCCL runtimes, options) shared by every
// coll.<op> benchmark, and the list of operations, one line each, in nccl-tests' order of
// importance for training: allreduce first.
#include "benchmarks/collectives/collective_benchmark.hpp"
#include "benchmarks/collectives/collective_op.hpp"
#include "core/registry.hpp"

namespace gpubench::benchmarks::collectives {

void register_coll(core::registry& r) {
  auto session = add_collective_family(r);
  for (auto op : {make_allreduce(), make_allgather(), make_reduce_scatter(), make_alltoall(),
                  make_broadcast(), make_sendrecv()})
    r.add(collective_def(session, std::move(op)));
}

}  // namespace gpubench::benchmarks::collectives

// Collective benchmarks listed before they are implemented (see benchmarks/planned.hpp).
#include "benchmarks/planned.hpp"

namespace gpubench::benchmarks {

void register_collectives_planned(core::registry& r) {
  add_planned(r, "coll.allreduce", "collectives",
              "allreduce bus bandwidth from 1 to N nodes (NCCL, MPI), over TCP and RDMA",
              core::bandwidth_metric());
}

}  // namespace gpubench::benchmarks

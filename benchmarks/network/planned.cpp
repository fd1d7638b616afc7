// Network benchmarks listed before they are implemented (see benchmarks/planned.hpp).
#include "benchmarks/planned.hpp"

namespace gpubench::benchmarks {

void register_network_planned(core::registry& r) {
  const auto bw = core::bandwidth_metric();
  const auto lat = core::latency_metric();
  add_planned(r, "net.rdma.latency", "network", "RDMA verbs latency (send/write/read), one-way",
              lat);
  add_planned(r, "net.rdma.bandwidth", "network", "RDMA verbs bandwidth (send/write/read)", bw);
}

}  // namespace gpubench::benchmarks

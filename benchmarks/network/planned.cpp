// Network benchmarks listed before they are implemented (see benchmarks/planned.hpp).
#include "benchmarks/planned.hpp"

namespace gpubench::benchmarks {

void register_network_planned(core::registry& r) {
  const auto bw = core::bandwidth_metric();
  const auto lat = core::latency_metric();
  add_planned(r, "net.tcp.latency", "network", "TCP ping-pong latency, one-way, with CPU cost", lat);
  add_planned(r, "net.tcp.bandwidth", "network", "TCP streaming bandwidth, 1 and N streams, with CPU cost", bw);
}

}  // namespace gpubench::benchmarks

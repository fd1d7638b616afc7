// GPU copy benchmarks listed before they are implemented (see benchmarks/planned.hpp).
#include "benchmarks/planned.hpp"

namespace gpubench::benchmarks {

void register_gpu_planned(core::registry& r) {
  const auto bw = core::bandwidth_metric();
  const auto lat = core::latency_metric();
  add_planned(r, "gpu.h2d", "gpu",
              "host-to-GPU copy bandwidth (pinned/pageable, CE/SM, per NUMA node)", bw);
  add_planned(r, "gpu.d2h", "gpu",
              "GPU-to-host copy bandwidth (pinned/pageable, CE/SM, per NUMA node)", bw);
  add_planned(r, "gpu.bidir", "gpu", "host<->GPU copy bandwidth in both directions at once", bw);
  add_planned(r, "gpu.p2p.bandwidth", "gpu", "GPU<->GPU copy bandwidth over PCIe/NVLink, all pairs",
              bw);
  add_planned(r, "gpu.p2p.latency", "gpu", "GPU->peer GPU memory latency (pointer chase)", lat);
  add_planned(r, "gpu.host.latency", "gpu", "GPU->host memory latency (pointer chase)", lat);
}

}  // namespace gpubench::benchmarks

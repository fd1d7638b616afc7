// The machine diagram of page one, drawn from one run's own topology (its `system` block) and
// labelled with what the run measured across each link. A pure function of the run, so the
// same boxes and colours appear in HTML, PDF and Markdown, and tests can check them.
#pragma once

#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::page_one {

// Columns: host memory, NUMA node (CPUs), devices (GPUs, NICs, RDMA devices), then the GPU peer
// fabric and the network. Each NUMA node has as many rows as devices attached to it.
// Edge figures: host copy (memory-NUMA), pinned copy-engine H2D/D2H (NUMA-GPU, PCIe link as
// negotiated and as capable), the slowest GPU pair from each GPU (GPU-peer fabric), the best
// TCP or RDMA bandwidth and the p50 latency (device-network).
model::diagram machine_diagram(const model::run_input& run);

}  // namespace gpubench::reports::page_one

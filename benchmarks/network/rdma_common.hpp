// What net.rdma.latency and net.rdma.bandwidth share: the family's options and system probe,
// the cases (device x operation x memory), connecting a case, and its CPU-cost extras.
#pragma once

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_state.hpp"
#include "core/registry.hpp"
#include "transports/rdma/rdma_backend.hpp"

namespace gpubench::benchmarks {

// Adds --rdma-op, --rdma-memory, --rdma-device, --rdma-port, --gid-index, --tx-depth,
// --cq-mod, --rdma-inline (shared by both benchmarks; the registry keeps one of each).
void add_rdma_options(core::registry& r);

core::requirement_status rdma_requirement(const core::run_context& ctx);
std::vector<nlohmann::json> rdma_cases(const core::run_context& ctx);

// Connects the case's client (loopback, or the peer's serve) and records its path and peak.
std::unique_ptr<transports::rdma::rdma_client> open_rdma_case(core::case_state& state,
                                                              transports::rdma::test_kind test);

// cpu_seconds_per_gb (both sides) and the client/server split, as the TCP benchmarks do.
void add_cpu_cost(core::point_result& p, const transports::rdma::point_cost& cost);

}  // namespace gpubench::benchmarks

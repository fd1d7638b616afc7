// What net.rdma.latency and net.rdma.bandwidth share: the family's options and system probe,
// the cases (device x operation x memory), and running a case's points through the RDMA
// transport with the shared point-to-point driver (loopback server, or --peer), as TCP does.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_state.hpp"
#include "core/registry.hpp"
#include "transports/rdma/exchange.hpp"

namespace gpubench::benchmarks::network {

// RDMA without --peer: both queue pairs are on one device, and every message still goes
// through the HCA (DMA out, the device's loopback, DMA in): not the "no NIC crossed" of TCP.
inline constexpr const char* rdma_loopback_label =
    "loopback through the RDMA device (both QPs on one HCA, no wire crossed)";
// params["peer"] of an RDMA case: --peer as given, or the label above.
std::string rdma_peer_param(const core::run_context& ctx);

// Adds the --rdma-* options and the driver's (shared by both benchmarks; the registry keeps
// one of each).
void add_rdma_options(core::registry& r);

core::requirement_status rdma_requirement(const core::run_context& ctx);
// device x operation x memory (x direction for bandwidth: --rdma-direction).
std::vector<nlohmann::json> rdma_cases(const core::run_context& ctx,
                                       transports::rdma::test_kind test);

// One point per size of the case: latency (one round trip, or one read, per sample) or
// bandwidth (a burst of work requests per sample), with both sides' CPU cost per GB.
void run_rdma_points(core::case_state& state, transports::rdma::test_kind test);

}  // namespace gpubench::benchmarks::network

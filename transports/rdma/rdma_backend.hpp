// What the net.rdma.* benchmarks need from the RDMA transport, with no libibverbs types:
// built from the verbs code when GPUBENCH_HAVE_VERBS, else from rdma_none.cpp, which
// answers every call with the reason it cannot run.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "core/run_context.hpp"
#include "transports/rdma/exchange.hpp"
#include "transports/rdma/message_link.hpp"
#include "transports/rdma/params.hpp"

namespace gpubench::transports::rdma {

// What one measured point cost, for "CPU seconds per GB" on both sides.
struct point_cost {
  double client_cpu_seconds = 0;
  double server_cpu_seconds = 0;
  double bytes = 0;  // payload moved while the CPU times ran (warm-up included)
};

// The active side of one case (one operation, memory kind and test), connected to its
// passive side: the peer's `gpubench serve`, or a thread on the same device (loopback).
class rdma_client {
 public:
  virtual ~rdma_client() = default;
  // The path: device, provider, link layer, rate, MTU, GID, NUMA, peer or loopback.
  virtual nlohmann::json context() const = 0;
  // The port's line rate in GB/s, when known.
  virtual std::optional<core::peak_info> peak() const = 0;

  // Both sides prepare a point of `size` bytes (zeroed buffers, counters).
  virtual void begin_point(std::uint64_t size) = 0;
  // One ping-pong (send, write) or one read: a latency sample.
  virtual void latency_round() = 0;
  // `iterations` work requests through the window, first post to last completion.
  virtual void bandwidth_burst(std::uint32_t iterations) = 0;
  // Window of the bandwidth test (for choosing iterations).
  virtual std::uint32_t tx_depth() const = 0;
  // Ends the point; both sides' CPU time since begin_point.
  virtual point_cost end_point() = 0;
};

struct client_request {
  test_kind test = test_kind::latency;
  rdma_op op = rdma_op::send;
  std::uint64_t max_size = 0;
  rdma_options options;
};

// Nothing when RDMA can run here; else the reason ("no RDMA device: ibv_get_device_list
// returned none", "built without libibverbs ...").
std::optional<std::string> rdma_unavailable_reason();

// Connects a case. With ctx.peer, through `link` to the peer's serve; without, loopback.
// Throws core::skip_case for a missing requirement, std::runtime_error otherwise.
std::unique_ptr<rdma_client> open_loopback_client(const client_request& request);
std::unique_ptr<rdma_client> open_remote_client(const client_request& request,
                                                std::unique_ptr<message_link> link);

// The passive side, for `gpubench serve`: answers one session on `link` until it ends.
// `options` are the server's own (--rdma-device, --rdma-port, --gid-index).
void serve_rdma_session(message_link& link, const rdma_options& options);

// The system block's rdma_devices (from sysfs) and software.rdma_core.
void add_rdma_system_info(nlohmann::json& system);

}  // namespace gpubench::transports::rdma

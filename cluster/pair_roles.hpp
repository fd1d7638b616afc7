// The two ends of one node pair in cluster mode: the server end hosts the ordinary control
// server (as `gpubench serve`) on its node's address, the client end runs the selected net.*
// cases against it exactly as `run --peer` does; and the reduction of the client's cases to
// the per-pair summaries rank 0 keeps.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cluster.hpp"
#include "core/registry.hpp"
#include "core/result.hpp"
#include "core/run_context.hpp"
#include "transports/control/server.hpp"
#include "transports/transport.hpp"

namespace gpubench::cluster {

// This node's address for pair traffic: the first IPv4 address of an interface that is up and
// not loopback (interfaces in name order), else 127.0.0.1.
std::string node_address();

// Server end: the control server on 0.0.0.0 (any port) with its serving thread, from
// construction to destruction. `token` (the launch secret) is required of every client and
// proven to it, as `serve --token-file` does: a host outside the launch is refused. The destructor
// stops and joins the thread; a session whose client went silent holds it until the transport's own
// timeout, so a caller reports first and lets the server go afterwards.
class pair_server {
 public:
  pair_server(transports::transport_table table, std::chrono::milliseconds wait,
              const std::string& token);

  std::uint16_t port() const { return m_server->port(); }
  ~pair_server();
  pair_server(const pair_server&) = delete;
  pair_server& operator=(const pair_server&) = delete;

  // Sends "ADDRESS:PORT" to the client rank and waits until it says it is done, calling
  // `waiting` meanwhile (this thread). An error (the client never said done within `wait`) is
  // returned, not thrown.
  std::optional<std::string> serve(int client_rank, const std::function<void()>& waiting = {});

 private:
  transports::transport_table m_table;
  std::chrono::milliseconds m_wait;
  std::unique_ptr<transports::control::control_server> m_server;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

// Client end: waits for the server's address (within `wait`), measures against it
// (measure_against), tells the server it is done, and returns the cases' summaries or throws
// std::runtime_error when the address never came.
// `direction` "" measures every way pair_variant keeps; "to_peer" or "from_peer" only that
// way's bandwidth cases (the second look's pair_rerun::direction).
nlohmann::json measure_pair(int server_rank, const std::vector<const core::benchmark_def*>& defs,
                            const core::run_context& ctx, const std::vector<std::uint64_t>& sizes,
                            bool keep_samples, std::chrono::milliseconds wait,
                            const std::string& token, const std::string& direction = "");

// Runs `defs` against the pair server at `peer` ("ADDRESS:PORT"), one size per run from
// `sizes`, proving `token` and requiring the server's proof (a server that cannot prove it
// fails the cases: their results would be an impostor's). Returns the cases' summaries; at
// `wait` the runner stops as on an interrupt and std::runtime_error is thrown.
nlohmann::json measure_against(const std::string& peer,
                               const std::vector<const core::benchmark_def*>& defs,
                               const core::run_context& ctx,
                               const std::vector<std::uint64_t>& sizes, bool keep_samples,
                               std::chrono::milliseconds wait, const std::string& token,
                               const std::string& direction = "");

// The pair-mode copy of a net.* benchmark, on host memory, one stream: latency (RDMA op write);
// bandwidth both ways, each way its own case: TCP to_peer (the measuring end b sends to a) and
// from_peer (a sends to b), RDMA write (to_peer) and read (from_peer); never both at once
// (bidir), which would sum the two ways into one figure. With `direction` ("to_peer" or
// "from_peer") only that way's bandwidth cases. The cases whose params say otherwise are dropped.
core::benchmark_def pair_variant(const core::benchmark_def& def, const std::string& direction = "");

// Whether pair_variant keeps a case of these params (exposed for the tests).
bool pair_keeps(const nlohmann::json& params, const std::string& direction);

// Adds one pair's cases (measure_pair's answer) to the matrix at the pair's slot
// (core::slot_lookup: a sparse sweep's pair_list position): a pair_measurement per
// benchmark/params/size (created on first sight, one entry per slot), a pair_failure per failed
// case. std::out_of_range for a pair the sweep does not list. `slots`: the section's lookup,
// kept by a caller that merges many pairs (built here when none is given).
void merge_pair(core::cluster_section& cluster, std::size_t a, std::size_t b,
                const nlohmann::json& cases, const core::slot_lookup* slots = nullptr);

}  // namespace gpubench::cluster

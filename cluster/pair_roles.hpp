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
nlohmann::json measure_pair(int server_rank, const std::vector<const core::benchmark_def*>& defs,
                            const core::run_context& ctx, const std::vector<std::uint64_t>& sizes,
                            bool keep_samples, std::chrono::milliseconds wait,
                            const std::string& token);

// Runs `defs` against the pair server at `peer` ("ADDRESS:PORT"), one size per run from
// `sizes`, proving `token` and requiring the server's proof (a server that cannot prove it
// fails the cases: their results would be an impostor's). Returns the cases' summaries; at
// `wait` the runner stops as on an interrupt and std::runtime_error is thrown.
nlohmann::json measure_against(const std::string& peer,
                               const std::vector<const core::benchmark_def*>& defs,
                               const core::run_context& ctx,
                               const std::vector<std::uint64_t>& sizes, bool keep_samples,
                               std::chrono::milliseconds wait, const std::string& token);

// The pair-mode copy of a net.* benchmark: one stream, direction to_peer, RDMA op write on host
// memory (the cases whose params say otherwise are dropped).
core::benchmark_def pair_variant(const core::benchmark_def& def);

// Adds one pair's cases (measure_pair's answer) to the matrix: a pair_measurement per
// benchmark/params/size (created on first sight), a pair_failure per failed case.
void merge_pair(core::cluster_section& cluster, std::size_t a, std::size_t b,
                const nlohmann::json& cases);

}  // namespace gpubench::cluster

// The shared driver of point-to-point network benchmarks: reach the case's peer (the
// in-process loopback server, or `--peer`), open the case with a transport, and run latency
// or bandwidth points through the runner's measure(), so TCP and RDMA share one loop, one
// set of statistics and one CPU accounting.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks/network/sample_sizing.hpp"
#include "core/case_state.hpp"
#include "core/registry.hpp"
#include "transports/control/client.hpp"
#include "transports/control/server.hpp"
#include "transports/transport.hpp"

namespace gpubench::benchmarks::network {

// The options every point-to-point family adds to `run` (shared, so added once):
// --streams, --on-error, --busy-poll, --token-file, --io-timeout.
void add_p2p_options(core::registry& r);

// The label of results measured without a peer.
inline constexpr const char* loopback_label = "loopback (no NIC crossed)";

// A control session to the case's peer with one case open. Without --peer it first starts
// a server on 127.0.0.1 in this process (hosting `transports`), for the case's lifetime.
class p2p_link {
 public:
  // `params` go to both endpoints (the case's params plus transport settings such as
  // busy_poll); context_info() of `state` gets the path: peer, server_version, and both
  // endpoints' descriptions; its peak is set when the endpoint knows the line rate.
  p2p_link(core::case_state& state, const transports::transport_table& transports,
           const std::string& transport, const nlohmann::json& params);
  ~p2p_link();
  p2p_link(const p2p_link&) = delete;
  p2p_link& operator=(const p2p_link&) = delete;

  transports::control::client_session& session() { return *m_session; }
  // "loopback (no NIC crossed)" or the peer's address.
  const std::string& peer_label() const { return m_peer_label; }

 private:
  class loopback_server;
  std::unique_ptr<loopback_server> m_loopback;
  std::unique_ptr<transports::control::client_session> m_session;
  std::string m_peer_label;
};

// The value of params["peer"] before a link exists: --peer as given, or the loopback label.
std::string peer_param(const core::run_context& ctx);
// Checks every p2p option (and reads the token file) so a bad value stops the run before it
// starts: core::usage_error / core::input_error.
void check_p2p_options(const core::run_context& ctx);
// --busy-poll on|off; throws core::usage_error otherwise.
bool busy_poll_requested(const core::run_context& ctx);
// 1 and the --streams counts (default: default_stream_count, stream_default.hpp), sorted, without
// repeats.
std::vector<unsigned> stream_counts(const core::run_context& ctx);

// Runs a case body: a failure gets the benchmark, case and peer in its message and, with
// --on-error stop, ends the run (core::stop_run); skips and interrupts pass unchanged.
void run_guarded(core::case_state& state, const std::string& peer,
                 const std::function<void()>& body);

// One latency point per size of the case: `iterations` round trips per sample (fewer for
// large messages), one-way latency, CPU cost per GB and per message in the point's extra.
void run_latency_points(core::case_state& state, p2p_link& link);
// The same over `sizes` (a subset of the case's, e.g. those its buffers hold).
void run_latency_points(core::case_state& state, p2p_link& link,
                        const std::vector<std::uint64_t>& sizes);

// One bandwidth point per size: `dir` and the case's streams. An endpoint with counted samples
// (TCP) runs its streams for the whole point and each sample is a window of `target.seconds`
// in which every stream's delivered bytes are summed, as iperf3 -P does; the point's extra gets
// the least and the most share of a stream (stream_share_min, stream_share_max: a stream's
// bytes over an equal split). Otherwise, before each point, calibration
// probes (sample_sizing.hpp, the point's warm-up) measure the rate, and each sample then moves
// what lasts `target.seconds` at that rate, raised to the target's floors; bytes per sample are
// the messages of all streams (both ways for bidir). The point's extra gets the message rate
// (of the median sample), the messages and bytes per sample, the median sample's duration and
// the number of probes, beside the CPU cost.
void run_bandwidth_points(core::case_state& state, p2p_link& link, transports::direction dir,
                          unsigned streams, const sample_target& target = {});
void run_bandwidth_points(core::case_state& state, p2p_link& link, transports::direction dir,
                          unsigned streams, const sample_target& target,
                          const std::vector<std::uint64_t>& sizes);

}  // namespace gpubench::benchmarks::network

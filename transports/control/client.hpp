// The client side of a control session: connect, handshake and authenticate, open a case
// with a transport, and drive its points (begin, samples, end with both sides' totals).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/system/machine_cpu.hpp"
#include "transports/control/channel.hpp"
#include "transports/net/socket.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports::control {

inline constexpr std::uint16_t default_port = 18515;

// The peer could not prove it knows the token (or asked for none while this client has one):
// it may be an impostor, so nothing more is run against it.
struct authentication_error : peer_error {
  using peer_error::peer_error;
};

struct client_options {
  std::string token;  // empty: no authentication offered
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds io_timeout{5000};
  std::function<bool()> interrupted;  // ends waits early when set
};

// Both sides' totals of one point.
struct point_cost {
  point_totals client;
  point_totals server;
};

class client_session {
 public:
  // Connects and completes the handshake. Throws with the peer's address and the reason
  // (refused, timed out, version mismatch, wrong or missing token, busy).
  client_session(const net::endpoint_address& peer, const client_options& options);
  ~client_session();  // says bye, best effort
  client_session(const client_session&) = delete;
  client_session& operator=(const client_session&) = delete;

  // Opens a case: the server builds its passive endpoint of `transport` with `params`
  // while this side builds the active one; both may exchange blobs meanwhile.
  // A server that cannot host the transport answers why: thrown as peer_error.
  void open_case(const transport_entry& transport, const nlohmann::json& params);
  void close_case();

  active_endpoint& endpoint();
  // The server's description of its side of the path (from case_ready).
  const nlohmann::json& server_context() const { return m_server_context; }
  const std::string& peer_name() const { return m_peer; }
  // The server's tool version, from the handshake.
  const std::string& server_version() const { return m_server_version; }

  // Prepares both sides for a point; returns when the passive side is ready.
  void begin_point(const point_spec& spec);
  // Tells the passive side to stop and collects both sides' totals. This side's
  // whole-machine CPU time runs from the server's "ready" to its totals: the server's own
  // interval (from its prepare to the end of serving) but for the one message saying ready.
  point_cost end_point();

 private:
  client_options m_options;
  std::string m_peer;
  std::string m_server_version;
  std::unique_ptr<control_channel> m_channel;
  std::unique_ptr<active_endpoint> m_endpoint;
  nlohmann::json m_server_context = nlohmann::json::object();
  core::machine_cpu_interval m_machine_cpu;  // restarted at each point's start
};

}  // namespace gpubench::transports::control

// The TCP transport: N parallel streams between the client and the server, ping-pong for
// latency (TCP_NODELAY on) and streams that run for the whole point for bandwidth (Nagle on, as
// iperf3 leaves it), sampled in windows of fixed duration through a tally connection
// (tally.hpp). Registered as "tcp".
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "transports/net/socket.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports::tcp {

// The case parameters the TCP transport reads (same on both sides).
struct tcp_settings {
  unsigned streams = 1;    // params "streams"
  bool busy_poll = false;  // params "busy_poll": spin on reads and ask for SO_BUSY_POLL
  // params "nodelay": TCP_NODELAY on the data streams; absent: on for latency points only
  // (a ping-pong must not wait for Nagle), off for bandwidth (as iperf3 without -N).
  std::optional<bool> nodelay;
};
// Throws std::runtime_error on a value out of range (1..1024 streams).
tcp_settings settings_from(const nlohmann::json& params);

transport_entry tcp_transport();

// The connections of a case: its data streams and the tally connection (tally.hpp).
struct stream_set {
  std::vector<net::unique_fd> data;
  net::unique_fd tally;
};
// Case setup over the control channel: the passive side listens next to the control
// connection, sends {port, cookie, data_protocol} as a blob, and accepts the active side's
// `streams` data connections and one tally connection, each announced by the cookie and a
// role byte (strays are dropped). A peer of another data protocol is refused by name.
stream_set accept_streams(const endpoint_setup& setup, unsigned streams);
stream_set connect_streams(const endpoint_setup& setup, unsigned streams);
// TCP_NODELAY for a point of this pattern under these settings.
bool nodelay_for(const tcp_settings& s, pattern p);
// Turns TCP_NODELAY on or off.
void set_nodelay(int fd, bool on);

std::unique_ptr<active_endpoint> make_tcp_active(const endpoint_setup& setup);
std::unique_ptr<passive_endpoint> make_tcp_passive(const endpoint_setup& setup);

}  // namespace gpubench::transports::tcp

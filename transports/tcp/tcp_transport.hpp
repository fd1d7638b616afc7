// The TCP transport: N parallel streams between the client and the server, TCP_NODELAY on,
// ping-pong for latency and a pump per stream for bandwidth. Registered as "tcp".
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "transports/net/socket.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports::tcp {

// The case parameters the TCP transport reads (same on both sides).
struct tcp_settings {
  unsigned streams = 1;    // params "streams"
  bool busy_poll = false;  // params "busy_poll": spin on reads and ask for SO_BUSY_POLL
};
// Throws std::runtime_error on a value out of range (1..1024 streams).
tcp_settings settings_from(const nlohmann::json& params);

transport_entry tcp_transport();

// Case setup over the control channel: the passive side listens next to the control
// connection, sends {port, cookie} as a blob, and accepts the active side's `streams`
// connections, each announced by the cookie (strays are dropped).
std::vector<net::unique_fd> accept_streams(const endpoint_setup& setup, unsigned streams);
std::vector<net::unique_fd> connect_streams(const endpoint_setup& setup, unsigned streams);

std::unique_ptr<active_endpoint> make_tcp_active(const endpoint_setup& setup);
std::unique_ptr<passive_endpoint> make_tcp_passive(const endpoint_setup& setup);

}  // namespace gpubench::transports::tcp

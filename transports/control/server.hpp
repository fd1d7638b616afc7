// The server side of the control channel, as `gpubench serve` and the in-process loopback
// server run it: handshakes of many clients at once, each under one deadline (a slow or
// silent client cannot hold the server), one session at a time (a second client is told
// "busy"), every transport of
// a transport_table hosted by name, and any broken, silent or hostile client logged and
// dropped while the server carries on with the next.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "transports/control/client.hpp"
#include "transports/control/handshake_pool.hpp"
#include "transports/net/socket.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports::control {

struct server_options {
  std::string bind = "0.0.0.0";
  std::uint16_t port = default_port;  // 0: any free port (see control_server::port())
  std::string token;                  // empty: no authentication required
  bool once = false;  // stop after the first session (successful or not; a client that never
                      // completes the handshake is not a session)
  std::chrono::milliseconds io_timeout{5000};
  // A session in which the client says nothing for this long is dropped (half-open peers).
  std::chrono::milliseconds idle_timeout{30000};
  // Deadline of the whole hello/auth exchange, pending handshakes, busy grace.
  handshake_limits limits;
  std::function<void(const std::string&)> log;  // one line per event; unset: silent
};

class control_server {
 public:
  // Binds and listens now, so port() is known and a bad address fails at once (with the
  // address and the reason).
  control_server(server_options options, const transport_table& transports);
  control_server(const control_server&) = delete;
  control_server& operator=(const control_server&) = delete;

  std::uint16_t port() const { return m_port; }

  // Serves sessions until `stop` returns true (polled every 100 ms) or, with `once`, after the
  // first session. Returns the number of sessions that ended cleanly.
  std::size_t serve(const std::function<bool()>& stop);

 private:
  // True when the session ended with the client's bye.
  bool run_session(net::unique_fd fd, const std::function<bool()>& stop);
  void log(const std::string& line) const;

  server_options m_options;
  const transport_table& m_transports;
  net::unique_fd m_listen;
  std::uint16_t m_port = 0;
};

}  // namespace gpubench::transports::control

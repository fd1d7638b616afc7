// The server's connections that have not finished their handshake: accepted without
// blocking, read as bytes arrive (poll), each bounded by one deadline for the whole
// hello/auth exchange, at most `max_pending` of them (the oldest dropped first), and told
// "busy" promptly while a session runs. A slow or silent client holds nothing but its own
// slot in this pool, so it cannot keep a real client out.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <string>

#include "transports/control/handshake.hpp"
#include "transports/net/socket.hpp"

namespace gpubench::transports::control {

struct handshake_limits {
  // The whole hello -> welcome exchange, however slowly its bytes arrive.
  std::chrono::milliseconds handshake_timeout{3000};
  // Connections in the handshake at once; a newcomer beyond it drops the oldest.
  std::size_t max_pending = 16;
  // A client arriving while a session runs waits this long (a client running case after case
  // reconnects as the last session winds down) before it is told busy.
  std::chrono::milliseconds busy_grace{300};
  // How long a refused connection is drained after our last frame before it is closed
  // (closing with unread input would reset the connection and destroy that frame).
  std::chrono::milliseconds linger{500};
};

// A connection whose handshake completed: the session runs on it.
struct established_client {
  net::unique_fd fd;
  std::string peer;
};

class handshake_pool {
 public:
  using log_fn = std::function<void(const std::string&)>;
  handshake_pool(std::string token, handshake_limits limits, log_fn log);
  handshake_pool(const handshake_pool&) = delete;
  handshake_pool& operator=(const handshake_pool&) = delete;
  ~handshake_pool();

  // Waits up to `timeout` for new connections on `listen_fd` (non-blocking) and bytes from
  // pending ones,
  // moves every handshake on, enforces deadlines and the bound. `session` describes the
  // running session's client (refusals name it), or is empty when the slot is free. Returns
  // a client whose handshake completed, only when the slot is free.
  std::optional<established_client> step(int listen_fd, std::chrono::milliseconds timeout,
                                         const std::string& session);

  // Connections held (in the handshake or being closed).
  std::size_t size() const { return m_clients.size(); }

 private:
  struct client;
  void accept_new(int listen_fd);
  void read_from(client& c);
  void apply(client& c, const handshake_output& out);
  void start_closing(client& c);

  std::string m_token;
  handshake_limits m_limits;
  log_fn m_log;
  std::list<client> m_clients;  // oldest first
};

}  // namespace gpubench::transports::control

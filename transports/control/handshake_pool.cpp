#include "transports/control/handshake_pool.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <vector>

#include <fmt/format.h>

#include "core/version.hpp"
#include "transports/control/auth.hpp"

namespace gpubench::transports::control {

namespace {

using pool_clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double in_seconds(milliseconds d) {
  return static_cast<double>(d.count()) / 1e3;
}

}  // namespace

struct handshake_pool::client {
  client(net::unique_fd f, std::string who, handshake_config config, pool_clock::time_point now,
         milliseconds timeout)
      : fd(std::move(f)),
        peer(std::move(who)),
        handshake(std::move(config), peer),
        accepted(now),
        deadline(now + timeout) {}
  net::unique_fd fd;
  std::string peer;
  server_handshake handshake;
  pool_clock::time_point accepted;
  pool_clock::time_point deadline;
  bool closing = false;  // our last frame is out; draining until the peer closes or linger ends
  bool gone = false;     // to be removed from the pool
};

handshake_pool::handshake_pool(std::string token, handshake_limits limits, log_fn log)
    : m_token(std::move(token)), m_limits(limits), m_log(std::move(log)) {}

handshake_pool::~handshake_pool() = default;

void handshake_pool::accept_new(int listen_fd) {
  // Bounded per step so a flood cannot keep this loop from serving the clients it holds.
  for (std::size_t i = 0; i < 4 * m_limits.max_pending; ++i) {
    net::unique_fd fd(::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!fd) return;  // EAGAIN (none left), or an aborted connection: nothing to hold
    const std::string peer = net::peer_text(fd.get());
    net::set_nodelay(fd.get());
    while (m_clients.size() >= m_limits.max_pending) {
      // Connections already refused go first, then the oldest handshake.
      auto victim = std::find_if(m_clients.begin(), m_clients.end(),
                                 [](const client& c) { return c.closing; });
      if (victim == m_clients.end()) {
        victim = m_clients.begin();
        if (m_log)
          m_log(fmt::format("dropped {}: {} handshakes pending, the oldest goes first",
                            victim->peer, m_limits.max_pending));
      }
      m_clients.erase(victim);
    }
    handshake_config config{m_token, core::tool_version, make_nonce()};
    m_clients.emplace_back(std::move(fd), peer, std::move(config), pool_clock::now(),
                           m_limits.handshake_timeout);
  }
}

void handshake_pool::apply(client& c, const handshake_output& out) {
  if (m_log)
    for (const auto& line : out.log)
      m_log(line);
  if (!out.send.empty()) {
    // Handshake frames are small and the socket's send buffer is empty: a send that would
    // block means the peer is not reading, which ends it.
    const ssize_t n =
        ::send(c.fd.get(), out.send.data(), out.send.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n != static_cast<ssize_t>(out.send.size())) {
      if (m_log) m_log("dropped " + c.peer + ": it does not read the server's replies");
      c.gone = true;
      return;
    }
  }
  if (c.handshake.state() == handshake_state::failed) start_closing(c);
}

void handshake_pool::start_closing(client& c) {
  if (c.closing) return;
  ::shutdown(c.fd.get(), SHUT_WR);
  c.closing = true;
  c.deadline = pool_clock::now() + m_limits.linger;
}

void handshake_pool::read_from(client& c) {
  std::array<std::byte, 4096> buffer{};
  const ssize_t n = ::recv(c.fd.get(), buffer.data(), buffer.size(), MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
  if (n <= 0) {
    if (!c.closing && m_log)
      m_log(fmt::format("dropped {}: it closed the connection during the handshake ({})", c.peer,
                        to_string(c.handshake.state())));
    c.gone = true;
    return;
  }
  if (c.closing) return;  // draining
  apply(c,
        c.handshake.feed(std::span<const std::byte>(buffer.data(), static_cast<std::size_t>(n))));
}

std::optional<established_client> handshake_pool::step(int listen_fd, milliseconds timeout,
                                                       const std::string& session) {
  auto now = pool_clock::now();
  for (const auto& c : m_clients) {
    auto due = c.deadline;
    if (!session.empty() && !c.closing) due = std::min(due, c.accepted + m_limits.busy_grace);
    const auto left = std::chrono::duration_cast<milliseconds>(due - now);
    timeout = std::clamp(left + milliseconds(1), milliseconds(0), timeout);
  }
  std::vector<pollfd> fds;
  fds.reserve(m_clients.size() + 1);
  fds.push_back({listen_fd, POLLIN, 0});
  for (const auto& c : m_clients)
    fds.push_back({c.fd.get(), POLLIN, 0});
  const int rc = ::poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
  if (rc < 0 && errno != EINTR)
    throw net::socket_error(fmt::format("waiting for clients: poll failed (errno {})", errno));

  // Clients first (in the order they came), then newcomers: a newcomer may push out the
  // oldest, which must not happen under our feet.
  std::size_t i = 1;
  bool slot_taken = !session.empty();
  std::optional<established_client> ready;
  now = pool_clock::now();
  for (auto& c : m_clients) {
    const short revents = rc > 0 ? fds[i++].revents : 0;
    if (c.gone) continue;
    const auto state = c.handshake.state();
    // A slot already taken: anyone not through the handshake is told busy, once its grace
    // has passed or as soon as it tries to authenticate (it must never get a welcome).
    if (slot_taken && !c.closing &&
        (now >= c.accepted + m_limits.busy_grace || state == handshake_state::awaiting_auth)) {
      apply(c, c.handshake.refuse_busy("another session (from " +
                                       (session.empty() ? "another client" : session) +
                                       ") is running; one session at a time, try again later"));
      continue;
    }
    if (revents != 0) read_from(c);
    if (c.gone) continue;
    if (c.closing) {
      if (now >= c.deadline) c.gone = true;
      continue;
    }
    if (c.handshake.state() == handshake_state::hello_received && !slot_taken)
      apply(c, c.handshake.accept());
    if (c.gone || c.closing) continue;
    if (c.handshake.state() == handshake_state::established) {
      net::set_nonblocking(c.fd.get(), false);
      ready = established_client{std::move(c.fd), c.peer};
      c.gone = true;
      slot_taken = true;
      continue;
    }
    if (now >= c.deadline)
      apply(c, c.handshake.fail(fmt::format("no complete handshake within {:.1f} s (in state {})",
                                            in_seconds(m_limits.handshake_timeout),
                                            to_string(c.handshake.state()))));
  }
  m_clients.remove_if([](const client& c) { return c.gone; });
  if (rc > 0 && (fds[0].revents & POLLIN) != 0) accept_new(listen_fd);
  return ready;
}

}  // namespace gpubench::transports::control

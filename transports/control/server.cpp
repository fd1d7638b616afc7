#include "transports/control/server.hpp"

#include <sys/socket.h>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/version.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/channel.hpp"
#include "transports/control/handshake_pool.hpp"

namespace gpubench::transports::control {

namespace {

using std::chrono::milliseconds;

// Lets the peer read our last frame before the socket closes: closing with unread input
// would send a reset that can destroy the reply in flight.
void close_gently(int fd) {
  ::shutdown(fd, SHUT_WR);
  std::array<char, 4096> sink{};
  for (int i = 0; i < 5 && net::wait_readable(fd, milliseconds(100));)
    if (::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT) <= 0) ++i;
}

// The passive side's view of the control channel during a point.
class server_point_control final : public point_control {
 public:
  server_point_control(control_channel& ch, milliseconds io_timeout)
      : m_channel(ch), m_timeout(io_timeout) {}

  int fd() const override { return m_channel.fd(); }

  bool stop_requested() override {
    if (m_stopped) return true;
    if (!net::wait_readable(m_channel.fd(), milliseconds(0))) return false;
    const auto end = m_channel.expect_json(message::point_end, m_timeout, "serving a point");
    if (const auto it = end.find("messages"); it != end.end()) {
      if (!it->is_number_unsigned())
        throw protocol_error("client " + m_channel.peer_name() +
                             " ended a point with a malformed message count");
      m_sent = it->get<std::uint64_t>();
    }
    m_stopped = true;
    return true;
  }

  bool wait(milliseconds timeout) override {
    if (m_stopped) return true;
    net::wait_readable(m_channel.fd(), timeout);
    return stop_requested();
  }

  std::optional<std::uint64_t> sent_messages() const override { return m_sent; }

  void check_quiet() override {
    if (!net::wait_readable(m_channel.fd(), milliseconds(0))) return;
    const std::string who = "client " + m_channel.peer_name();
    frame f;
    try {
      f = m_channel.receive(m_timeout);
    } catch (const std::exception& e) {
      throw peer_error(who + " left after ending the point: " + e.what());
    }
    if (f.type == message::error)
      throw peer_error(who +
                       " gave up after ending the point: " + core::escape_untrusted(message_of(f)));
    throw protocol_error(who + " sent " + to_string(f.type) +
                         " after ending the point, before this side's totals");
  }

 private:
  control_channel& m_channel;
  milliseconds m_timeout;
  bool m_stopped = false;
  std::optional<std::uint64_t> m_sent;
};

}  // namespace

control_server::control_server(server_options options, const transport_table& transports)
    : m_options(std::move(options)),
      m_transports(transports),
      m_listen(net::listen_tcp(m_options.bind, m_options.port)),
      m_port(net::local_port(m_listen.get())) {
  // The pool accepts until the backlog is empty: a blocking accept would hang there.
  net::set_nonblocking(m_listen.get(), true);
}

void control_server::log(const std::string& line) const {
  // Wire text is escaped where it enters a line; this is the last guard: one event, one line.
  if (m_options.log) m_options.log(core::escape_untrusted(line, 2000));
}

std::size_t control_server::serve(const std::function<bool()>& stop) {
  std::atomic<bool> busy{false};
  std::atomic<std::size_t> clean{0};
  std::string current;  // the running session's client, for the busy reply
  std::jthread session;
  bool served_one = false;
  handshake_pool pool(m_options.token, m_options.limits,
                      [this](const std::string& line) { log(line); });
  while (!(stop && stop())) {
    if (m_options.once && served_one && !busy) break;
    if (!busy && session.joinable()) session.join();
    auto ready = pool.step(m_listen.get(), milliseconds(100), busy ? current : std::string());
    if (!ready) continue;
    current = ready->peer;
    busy = true;
    served_one = true;
    session = std::jthread([this, &busy, &clean, &stop, c = std::move(*ready)]() mutable {
      if (run_session(std::move(c.fd), stop)) ++clean;
      busy = false;
    });
  }
  if (session.joinable()) session.join();
  return clean;
}

bool control_server::run_session(net::unique_fd fd, const std::function<bool()>& stop) {
  control_channel ch(std::move(fd), "client");
  const std::string who = ch.peer_name();
  const auto t = m_options.io_timeout;
  try {
    std::unique_ptr<passive_endpoint> endpoint;
    for (;;) {
      // Idle between frames: a vanished client is dropped after idle_timeout.
      const milliseconds slice(200);
      milliseconds waited(0);
      while (!net::wait_readable(ch.fd(), slice)) {
        waited += slice;
        if (stop && stop()) throw std::runtime_error("the server is shutting down");
        if (waited >= m_options.idle_timeout)
          throw net::socket_error(fmt::format("client {} said nothing for {:.0f} s", who,
                                              static_cast<double>(waited.count()) / 1e3));
      }
      const frame f = ch.receive(t);
      if (f.type == message::bye) {
        log("session from " + who + " ended");
        return true;
      }
      if (f.type == message::error)
        throw peer_error("client " + who + " gave up: " + core::escape_untrusted(message_of(f)));
      const auto body = nlohmann::json::parse(as_string(f.payload), nullptr, false);
      if (body.is_discarded())
        throw protocol_error("client " + who + " sent a malformed " + to_string(f.type));
      if (f.type == message::case_open) {
        endpoint.reset();
        const auto name = core::escape_untrusted(body.value("transport", std::string()), 64);
        const transport_entry* entry = m_transports.find(name);
        if (!entry || !entry->make_passive) {
          ch.send_error("transport '" + name + "' is not served here");
          continue;
        }
        if (!entry->unavailable.empty()) {
          ch.send_error("this server cannot host transport '" + name + "': " + entry->unavailable);
          continue;
        }
        log(fmt::format("case from {}: {} {}", who, name,
                        core::escape_untrusted(body.value("params", nlohmann::json()).dump())));
        endpoint_setup setup;
        setup.params = body.value("params", nlohmann::json::object());
        setup.oob = &ch;
        setup.io_timeout = t;
        try {
          endpoint = entry->make_passive(setup);
        } catch (const peer_error&) {
          throw;
        } catch (const std::exception& e) {
          log("case from " + who + " failed on the server: " + e.what());
          ch.send_error(std::string("the server could not set up its side: ") + e.what());
          continue;
        }
        ch.send_json(message::case_ready, {{"context", endpoint->describe()}});
      } else if (f.type == message::point_begin) {
        if (!endpoint) throw protocol_error("client " + who + " began a point with no open case");
        endpoint->prepare(point_spec_from_json(body));
        const core::machine_cpu_interval machine_cpu;  // this host's whole CPU time while serving
        ch.send_json(message::point_ready, nlohmann::json::object());
        server_point_control control(ch, t);
        point_totals totals = endpoint->serve(control);
        totals.machine_cpu_time = machine_cpu.elapsed();
        totals.machine = core::machine_id();
        ch.send_json(message::point_done, to_json(totals));
      } else if (f.type == message::case_close) {
        endpoint.reset();
      } else {
        throw protocol_error("client " + who + " sent " + to_string(f.type) + " out of turn");
      }
    }
  } catch (const std::exception& e) {
    log("session from " + who + " dropped: " + e.what());
    ch.send_error(e.what());
    close_gently(ch.fd());
  }
  return false;
}

}  // namespace gpubench::transports::control

#include "transports/control/server.hpp"

#include <sys/socket.h>

#include <atomic>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "core/version.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/channel.hpp"

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
    m_channel.expect_json(message::point_end, m_timeout, "serving a point");
    m_stopped = true;
    return true;
  }

  bool wait(milliseconds timeout) override {
    if (m_stopped) return true;
    net::wait_readable(m_channel.fd(), timeout);
    return stop_requested();
  }

 private:
  control_channel& m_channel;
  milliseconds m_timeout;
  bool m_stopped = false;
};

}  // namespace

control_server::control_server(server_options options, const transport_table& transports)
    : m_options(std::move(options)),
      m_transports(transports),
      m_listen(net::listen_tcp(m_options.bind, m_options.port)),
      m_port(net::local_port(m_listen.get())) {}

void control_server::log(const std::string& line) const {
  if (m_options.log) m_options.log(line);
}

std::size_t control_server::serve(const std::function<bool()>& stop) {
  std::atomic<bool> busy{false};
  std::atomic<std::size_t> clean{0};
  std::string current;  // the running session's client, for the busy reply
  std::jthread session;
  bool served_one = false;
  while (!(stop && stop())) {
    if (m_options.once && served_one && !busy) break;
    net::unique_fd fd = net::accept_tcp(m_listen.get(), milliseconds(100));
    if (!fd) continue;
    const std::string who = net::peer_text(fd.get());
    // A client running case after case reconnects as soon as it said bye: give the ending
    // session a moment to wind down before calling the newcomer a second client.
    for (int i = 0; busy && i < 100; ++i)
      std::this_thread::sleep_for(milliseconds(10));
    if (busy) {
      log("refused " + who + ": busy with a session from " + current);
      control_channel ch(std::move(fd), "client");
      try {
        ch.receive(milliseconds(1000));  // its hello, so closing sends no reset
      } catch (const std::exception&) {
      }
      try {
        ch.send_json(message::busy,
                     {{"message", "another session (from " + current +
                                      ") is running; one session at a time, try again later"}});
      } catch (const std::exception&) {
      }
      close_gently(ch.fd());
      continue;
    }
    if (session.joinable()) session.join();
    current = who;
    busy = true;
    served_one = true;
    session = std::jthread([this, &busy, &clean, &stop, f = std::move(fd)]() mutable {
      if (run_session(std::move(f), stop)) ++clean;
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
  log("session from " + who);
  try {
    const auto hello = ch.expect_json(message::hello, t, "waiting for its hello");
    const auto protocol = hello.value("protocol", 0);
    const auto tool = hello.value("tool", std::string("?"));
    if (protocol != protocol_version || tool != core::tool_version)
      throw protocol_error(fmt::format(
          "version mismatch: client {} runs gpubench {} (control protocol {}), this server runs "
          "gpubench {} (control protocol {}); run the same version on both hosts",
          who, tool, protocol, core::tool_version, protocol_version));
    const std::string client_nonce = hello.value("nonce", "");
    const std::string server_nonce = make_nonce();
    const bool auth = !m_options.token.empty();
    ch.send_json(message::challenge, {{"protocol", protocol_version},
                                      {"tool", core::tool_version},
                                      {"auth", auth},
                                      {"nonce", server_nonce}});
    const auto proof = ch.expect_json(message::auth, t, "waiting for its authentication");
    if (auth && !equal_constant_time(proof.value("mac", ""), auth_mac(m_options.token, "client",
                                                                      client_nonce, server_nonce)))
      throw peer_error("authentication failed: the client's token does not match the server's");
    ch.send_json(
        message::welcome,
        {{"mac", auth ? auth_mac(m_options.token, "server", client_nonce, server_nonce) : ""}});

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
        throw peer_error("client " + who + " gave up: " +
                         nlohmann::json::parse(as_string(f.payload), nullptr, false)
                             .value("message", std::string("no reason")));
      const auto body = nlohmann::json::parse(as_string(f.payload), nullptr, false);
      if (body.is_discarded())
        throw protocol_error("client " + who + " sent a malformed " + to_string(f.type));
      if (f.type == message::case_open) {
        endpoint.reset();
        const auto name = body.value("transport", std::string());
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
                        body.value("params", nlohmann::json()).dump()));
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
        ch.send_json(message::point_ready, nlohmann::json::object());
        server_point_control control(ch, t);
        const point_totals totals = endpoint->serve(control);
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

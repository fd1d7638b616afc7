// The TCP transport's case setup: data streams set up next to the control connection.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/timer.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/frame.hpp"
#include "transports/tcp/tally.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::transports::tcp {

namespace {

constexpr std::size_t cookie_bytes = 32;
// The byte after the cookie: which connection of the case this is.
constexpr char role_data = 'd';
constexpr char role_tally = 't';

}  // namespace

tcp_settings settings_from(const nlohmann::json& params) {
  tcp_settings s;
  const long long streams = params.value("streams", 1LL);
  if (streams < 1 || streams > 1024)
    throw std::runtime_error(fmt::format("streams = {}: expected 1 to 1024", streams));
  s.streams = static_cast<unsigned>(streams);
  s.busy_poll = params.value("busy_poll", false);
  if (params.contains("nodelay")) {
    if (!params.at("nodelay").is_boolean())
      throw std::runtime_error("nodelay: expected true or false");
    s.nodelay = params.at("nodelay").get<bool>();
  }
  return s;
}

bool nodelay_for(const tcp_settings& s, pattern p) {
  return s.nodelay.value_or(p == pattern::latency);
}

void set_nodelay(int fd, bool on) {
  const int v = on ? 1 : 0;
  if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, sizeof v) != 0)
    throw net::socket_error(std::string("setting TCP_NODELAY: ") + std::strerror(errno));
}

stream_set accept_streams(const endpoint_setup& setup, unsigned streams) {
  oob_channel& oob = *setup.oob;
  net::unique_fd listener = net::listen_tcp(oob.local_address(), 0, static_cast<int>(streams) + 1);
  const std::string cookie = control::make_nonce().substr(0, cookie_bytes);
  const auto blob = nlohmann::json{
      {"port", net::local_port(listener.get())},
      {"cookie", cookie},
      {"data_protocol",
       data_protocol}}.dump();
  oob.send_blob(control::as_bytes(blob));

  stream_set out;
  const core::stopwatch clock;
  const double limit = static_cast<double>(setup.io_timeout.count()) / 1e3;
  while (out.data.size() < streams || !out.tally) {
    const double left = limit - clock.seconds();
    if (left <= 0)
      throw net::socket_error(fmt::format(
          "waiting for the data streams of client {}: {} of {} connected after {:.1f} s",
          oob.peer_name(), out.data.size() + (out.tally ? 1 : 0), streams + 1, limit));
    net::unique_fd fd =
        net::accept_tcp(listener.get(), std::chrono::milliseconds(static_cast<long>(left * 1e3)));
    if (!fd) continue;
    std::string seen(cookie_bytes + 1, '\0');
    try {
      net::recv_all(fd.get(), std::as_writable_bytes(std::span(seen)),
                    std::chrono::milliseconds(1000), "reading a data stream's cookie");
    } catch (const std::exception&) {
      continue;  // not our client: drop it and keep waiting
    }
    if (seen.substr(0, cookie_bytes) != cookie || net::peer_host(fd.get()) != oob.peer_address())
      continue;
    const char role = seen.back();
    if (role == role_tally && !out.tally) {
      net::set_nodelay(fd.get());
      out.tally = std::move(fd);
    } else if (role == role_data && out.data.size() < streams) {
      out.data.push_back(std::move(fd));
    }
  }
  return out;
}

stream_set connect_streams(const endpoint_setup& setup, unsigned streams) {
  oob_channel& oob = *setup.oob;
  const auto blob = oob.receive_blob(setup.io_timeout);
  nlohmann::json j = nlohmann::json::parse(control::as_string(blob), nullptr, false);
  if (j.is_discarded() || !j.contains("port") || !j.contains("cookie"))
    throw control::protocol_error("peer " + oob.peer_name() + " sent a malformed TCP setup blob");
  const int theirs = j.value("data_protocol", 1);
  if (theirs != data_protocol)
    throw control::protocol_error(fmt::format(
        "peer {} speaks TCP data protocol {}, this side {}: run the same gpubench version on both",
        oob.peer_name(), theirs, data_protocol));
  const std::string cookie = j.at("cookie").get<std::string>();
  if (cookie.size() != cookie_bytes)
    throw control::protocol_error("peer " + oob.peer_name() + " sent a bad stream cookie");
  const net::endpoint_address data{oob.peer_address(), j.at("port").get<std::uint16_t>()};
  const auto announce = [&](char role, const std::string& what) {
    net::unique_fd fd = net::connect_tcp(data, setup.io_timeout, setup.interrupted);
    net::send_all(fd.get(), control::as_bytes(cookie + role), setup.io_timeout,
                  "announcing " + what + " to " + data.text());
    return fd;
  };
  stream_set out;
  for (unsigned i = 0; i < streams; ++i)
    out.data.push_back(announce(role_data, "data stream " + std::to_string(i)));
  out.tally = announce(role_tally, "the tally connection");
  net::set_nodelay(out.tally.get());
  return out;
}

transport_entry tcp_transport() {
  transport_entry e;
  e.name = "tcp";
  e.make_active = make_tcp_active;
  e.make_passive = make_tcp_passive;
  return e;
}

}  // namespace gpubench::transports::tcp

// The TCP transport's case setup: data streams set up next to the control connection.
#include <fmt/format.h>

#include "core/timer.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/frame.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::transports::tcp {

namespace {

constexpr std::size_t cookie_bytes = 32;

}  // namespace

tcp_settings settings_from(const nlohmann::json& params) {
  tcp_settings s;
  const long long streams = params.value("streams", 1LL);
  if (streams < 1 || streams > 1024)
    throw std::runtime_error(fmt::format("streams = {}: expected 1 to 1024", streams));
  s.streams = static_cast<unsigned>(streams);
  s.busy_poll = params.value("busy_poll", false);
  return s;
}

std::vector<net::unique_fd> accept_streams(const endpoint_setup& setup, unsigned streams) {
  oob_channel& oob = *setup.oob;
  net::unique_fd listener = net::listen_tcp(oob.local_address(), 0, static_cast<int>(streams));
  const std::string cookie = control::make_nonce().substr(0, cookie_bytes);
  const auto blob =
      nlohmann::json{{"port", net::local_port(listener.get())}, {"cookie", cookie}}.dump();
  oob.send_blob(control::as_bytes(blob));

  std::vector<net::unique_fd> out;
  const core::stopwatch clock;
  const double limit = static_cast<double>(setup.io_timeout.count()) / 1e3;
  while (out.size() < streams) {
    const double left = limit - clock.seconds();
    if (left <= 0)
      throw net::socket_error(fmt::format(
          "waiting for the data streams of client {}: {} of {} connected after {:.1f} s",
          oob.peer_name(), out.size(), streams, limit));
    net::unique_fd fd =
        net::accept_tcp(listener.get(), std::chrono::milliseconds(static_cast<long>(left * 1e3)));
    if (!fd) continue;
    std::string seen(cookie_bytes, '\0');
    try {
      net::recv_all(fd.get(), std::as_writable_bytes(std::span(seen)),
                    std::chrono::milliseconds(1000), "reading a data stream's cookie");
    } catch (const std::exception&) {
      continue;  // not our client: drop it and keep waiting
    }
    if (seen != cookie || net::peer_host(fd.get()) != oob.peer_address()) continue;
    net::set_nodelay(fd.get());
    out.push_back(std::move(fd));
  }
  return out;
}

std::vector<net::unique_fd> connect_streams(const endpoint_setup& setup, unsigned streams) {
  oob_channel& oob = *setup.oob;
  const auto blob = oob.receive_blob(setup.io_timeout);
  nlohmann::json j = nlohmann::json::parse(control::as_string(blob), nullptr, false);
  if (j.is_discarded() || !j.contains("port") || !j.contains("cookie"))
    throw control::protocol_error("peer " + oob.peer_name() + " sent a malformed TCP setup blob");
  const std::string cookie = j.at("cookie").get<std::string>();
  if (cookie.size() != cookie_bytes)
    throw control::protocol_error("peer " + oob.peer_name() + " sent a bad stream cookie");
  const net::endpoint_address data{oob.peer_address(), j.at("port").get<std::uint16_t>()};
  std::vector<net::unique_fd> out;
  for (unsigned i = 0; i < streams; ++i) {
    net::unique_fd fd = net::connect_tcp(data, setup.io_timeout, setup.interrupted);
    net::send_all(fd.get(), control::as_bytes(cookie), setup.io_timeout,
                  "announcing data stream " + std::to_string(i) + " to " + data.text());
    net::set_nodelay(fd.get());
    out.push_back(std::move(fd));
  }
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

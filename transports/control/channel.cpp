#include "transports/control/channel.hpp"

#include <fmt/format.h>

#include "core/escape.hpp"

namespace gpubench::transports::control {

std::string message_of(const frame& f) {
  try {
    return core::escape_untrusted(
        nlohmann::json::parse(as_string(f.payload)).at("message").get<std::string>());
  } catch (const std::exception&) {
    return "(no readable reason given)";
  }
}

control_channel::control_channel(net::unique_fd fd, std::string role)
    : m_fd(std::move(fd)), m_role(std::move(role)), m_peer(net::peer_text(m_fd.get())) {
  net::set_nodelay(m_fd.get());
  net::set_keepalive(m_fd.get());
}

void control_channel::send(message type, std::span<const std::byte> payload) {
  const auto bytes = encode_frame(type, payload);
  net::send_all(m_fd.get(), bytes, std::chrono::milliseconds(5000),
                "sending " + to_string(type) + " to " + m_role + " " + m_peer);
}

void control_channel::send_json(message type, const nlohmann::json& body) {
  send(type, as_bytes(body.dump()));
}

void control_channel::send_error(const std::string& text) noexcept {
  try {
    const auto body = nlohmann::json{{"message", text}}.dump();
    const auto bytes = encode_frame(message::error, as_bytes(body));
    net::send_all(m_fd.get(), bytes, std::chrono::milliseconds(1000), "sending an error");
  } catch (...) {
    // The peer may be gone already; the reason is logged by the caller.
  }
}

frame control_channel::receive(std::chrono::milliseconds timeout) {
  const std::string what = "receiving from " + m_role + " " + m_peer;
  std::array<std::byte, frame_header_bytes> head{};
  if (!net::wait_readable(m_fd.get(), timeout))
    throw net::socket_error(fmt::format("{}: nothing received for {:.1f} s", what,
                                        static_cast<double>(timeout.count()) / 1e3));
  net::recv_all(m_fd.get(), head, timeout, what);
  const frame_header h = decode_header(head);
  check_header(h);
  frame f;
  f.version = h.version;
  f.type = static_cast<message>(h.type);
  if (h.version != protocol_version && f.type != message::error)
    throw protocol_error(fmt::format(
        "protocol version mismatch: {} {} speaks control protocol {}, this gpubench speaks {}; "
        "run the same gpubench version on both hosts",
        m_role, m_peer, h.version, protocol_version));
  f.payload.resize(h.length);
  net::recv_all(m_fd.get(), f.payload, timeout, what);
  return f;
}

nlohmann::json control_channel::expect_json(message expected, std::chrono::milliseconds timeout,
                                            const std::string& doing) {
  const frame f = receive(timeout);
  if (f.type == message::error || f.type == message::busy)
    throw peer_error(fmt::format("{} {} {}: {}", m_role, m_peer,
                                 f.type == message::busy ? "is busy" : "reports an error",
                                 message_of(f)));
  if (f.type != expected)
    throw protocol_error(fmt::format("{} {} sent {} while {} (expected {})", m_role, m_peer,
                                     to_string(f.type), doing, to_string(expected)));
  try {
    return f.payload.empty() ? nlohmann::json::object()
                             : nlohmann::json::parse(as_string(f.payload));
  } catch (const std::exception& e) {
    throw protocol_error(fmt::format("{} {} sent a malformed {} while {}: {}", m_role, m_peer,
                                     to_string(f.type), doing, e.what()));
  }
}

void control_channel::send_blob(std::span<const std::byte> data) {
  send(message::blob, data);
}

std::vector<std::byte> control_channel::receive_blob(std::chrono::milliseconds timeout) {
  frame f = receive(timeout);
  if (f.type == message::error || f.type == message::busy)
    throw peer_error(
        fmt::format("{} {} reports an error during case setup: {}", m_role, m_peer, message_of(f)));
  if (f.type != message::blob)
    throw protocol_error(fmt::format("{} {} sent {} during case setup (expected a blob)", m_role,
                                     m_peer, to_string(f.type)));
  return std::move(f.payload);
}

std::string control_channel::local_address() const {
  return net::local_host(m_fd.get());
}
std::string control_channel::peer_address() const {
  return net::peer_host(m_fd.get());
}

}  // namespace gpubench::transports::control

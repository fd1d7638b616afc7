// One control connection: framed messages over a TCP socket, every receive bounded by a
// timeout, an `error` frame from the peer turned into an exception carrying its words.
#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "transports/control/frame.hpp"
#include "transports/net/socket.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports::control {

// The peer said why it stopped (an `error` or `busy` frame).
struct peer_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The words of an `error` or `busy` frame, escaped and capped (they come from the peer).
std::string message_of(const frame& f);

class control_channel : public oob_channel {
 public:
  // `role` is how messages name the other side: "peer" on the client, "client" on the server.
  control_channel(net::unique_fd fd, std::string role);

  void send(message type, std::span<const std::byte> payload = {});
  void send_json(message type, const nlohmann::json& body);
  // Tells the peer why we stop; never throws (the connection may already be gone).
  void send_error(const std::string& text) noexcept;

  // The next frame, within `timeout`. Throws protocol_error (garbage, oversized, unknown
  // type, other protocol version), net::socket_error (closed, reset, timed out).
  frame receive(std::chrono::milliseconds timeout);
  // The next frame, which must be `expected`; its JSON payload. An `error`/`busy` frame throws
  // peer_error with the peer's words; anything else is a protocol_error. `doing` says what we
  // waited for, for the message ("waiting for the peer's point_done").
  nlohmann::json expect_json(message expected, std::chrono::milliseconds timeout,
                             const std::string& doing);

  // oob_channel
  void send_blob(std::span<const std::byte> data) override;
  std::vector<std::byte> receive_blob(std::chrono::milliseconds timeout) override;
  std::string peer_name() const override { return m_peer; }
  std::string local_address() const override;
  std::string peer_address() const override;

  int fd() const { return m_fd.get(); }
  const std::string& role() const { return m_role; }

 private:
  net::unique_fd m_fd;
  std::string m_role;
  std::string m_peer;  // "198.18.0.2:18515"
};

}  // namespace gpubench::transports::control

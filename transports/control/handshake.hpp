// The server's side of the control handshake (hello -> challenge -> auth -> welcome) as a
// pure state machine: bytes in, frames to send and log lines out, no socket and no clock.
// The server's poll loop owns the sockets and the deadline; fuzzers and unit tests drive
// this directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "transports/control/frame_reader.hpp"

namespace gpubench::transports::control {

// No handshake frame needs more: a hello or auth is under 200 bytes. A larger declared
// length is refused from its header instead of waiting for the bytes.
inline constexpr std::uint32_t max_handshake_payload = 16u << 10;

enum class handshake_state {
  awaiting_hello,  // nothing decided yet
  hello_received,  // a good hello: the server must call accept() or refuse_busy()
  awaiting_auth,   // challenge sent
  established,     // welcome sent: the session may start on this connection
  failed,          // an error or busy frame is queued; close after sending it
};

std::string to_string(handshake_state s);

struct handshake_config {
  std::string token;         // empty: no authentication required
  std::string tool_version;  // this server's gpubench version
  std::string server_nonce;  // fresh per connection (make_nonce())
};

// What one step asks the caller to do, in order: write `send` (whole frames, possibly
// empty), log each line of `log` (already escaped: wire text never reaches a log raw).
struct handshake_output {
  std::vector<std::byte> send;
  std::vector<std::string> log;
};

class server_handshake {
 public:
  // `peer` names the client in log lines and messages ("127.0.0.1:40000").
  server_handshake(handshake_config config, std::string peer);

  // Bytes received from the client. Any split of the stream gives the same result. Bytes
  // after the state leaves awaiting_hello/awaiting_auth are a protocol error (the client
  // must wait for our reply), except in `failed`, where they are ignored. Never throws.
  handshake_output feed(std::span<const std::byte> bytes);
  // From hello_received: send the challenge (the slot is free).
  handshake_output accept();
  // From hello_received (or any state before established): refuse with a busy frame.
  handshake_output refuse_busy(const std::string& why);
  // Gives up (deadline, server stopping): an error frame saying why, state failed.
  handshake_output fail(const std::string& why);

  handshake_state state() const { return m_state; }
  // Why the handshake failed (escaped), empty otherwise.
  const std::string& failure() const { return m_failure; }
  // The client's tool version from its hello, escaped; empty before a hello.
  const std::string& client_tool() const { return m_client_tool; }
  const std::string& peer() const { return m_peer; }

 private:
  void on_frame(const frame& f, handshake_output& out);
  void on_hello(const frame& f, handshake_output& out);
  void on_auth(const frame& f, handshake_output& out);
  void fail_into(const std::string& why, handshake_output& out);

  handshake_config m_config;
  std::string m_peer;
  frame_reader m_reader{max_handshake_payload};
  handshake_state m_state = handshake_state::awaiting_hello;
  std::string m_client_nonce;
  std::string m_client_tool;
  std::string m_failure;
};

}  // namespace gpubench::transports::control

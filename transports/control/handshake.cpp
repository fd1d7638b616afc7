#include "transports/control/handshake.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/escape.hpp"
#include "transports/control/auth.hpp"

namespace gpubench::transports::control {

namespace {

void append_frame(handshake_output& out, message type, const nlohmann::json& body) {
  const auto bytes = encode_frame(type, as_bytes(body.dump()));
  out.send.insert(out.send.end(), bytes.begin(), bytes.end());
}

// The JSON object of a handshake frame; throws protocol_error naming the frame otherwise.
nlohmann::json object_of(const frame& f) {
  auto body = nlohmann::json::parse(as_string(f.payload), nullptr, false);
  if (body.is_discarded() || !body.is_object())
    throw protocol_error("its " + to_string(f.type) + " is not a JSON object");
  return body;
}

// A string field, or `fallback` when absent; a field of another type is a protocol error
// (nlohmann's value() would throw a type_error with less helpful words).
std::string string_field(const nlohmann::json& body, const char* key, const std::string& fallback) {
  const auto it = body.find(key);
  if (it == body.end()) return fallback;
  if (!it->is_string()) throw protocol_error(std::string("field '") + key + "' is not a string");
  return it->get<std::string>();
}

}  // namespace

std::string to_string(handshake_state s) {
  switch (s) {
    case handshake_state::awaiting_hello:
      return "awaiting hello";
    case handshake_state::hello_received:
      return "hello received";
    case handshake_state::awaiting_auth:
      return "awaiting auth";
    case handshake_state::established:
      return "established";
    case handshake_state::failed:
      return "failed";
  }
  return "unknown";
}

server_handshake::server_handshake(handshake_config config, std::string peer)
    : m_config(std::move(config)), m_peer(std::move(peer)) {}

handshake_output server_handshake::feed(std::span<const std::byte> bytes) {
  handshake_output out;
  if (m_state == handshake_state::failed || bytes.empty()) return out;
  if (m_state != handshake_state::awaiting_hello && m_state != handshake_state::awaiting_auth) {
    fail_into("it sent data before the server's reply (in state " + to_string(m_state) + ")", out);
    return out;
  }
  m_reader.feed(bytes);
  try {
    while (m_state == handshake_state::awaiting_hello ||
           m_state == handshake_state::awaiting_auth) {
      auto f = m_reader.next();
      if (!f) break;
      on_frame(*f, out);
    }
    if (m_state != handshake_state::failed && m_reader.buffered() > 0 &&
        m_state != handshake_state::awaiting_hello && m_state != handshake_state::awaiting_auth)
      throw protocol_error("it sent data before the server's reply");
  } catch (const std::exception& e) {
    fail_into(e.what(), out);
  }
  return out;
}

void server_handshake::on_frame(const frame& f, handshake_output& out) {
  if (f.version != protocol_version && f.type != message::error)
    throw protocol_error(
        fmt::format("protocol version mismatch: client {} speaks control protocol {}, this "
                    "gpubench speaks {}; run the same gpubench version on both hosts",
                    m_peer, f.version, protocol_version));
  if (f.type == message::error) {
    std::string words = "no reason given";
    const auto body = nlohmann::json::parse(as_string(f.payload), nullptr, false);
    if (body.is_object() && body.contains("message") && body["message"].is_string())
      words = body["message"].get<std::string>();
    throw protocol_error("the client gave up: " + core::escape_untrusted(words));
  }
  if (m_state == handshake_state::awaiting_hello && f.type == message::hello)
    return on_hello(f, out);
  if (m_state == handshake_state::awaiting_auth && f.type == message::auth) return on_auth(f, out);
  throw protocol_error("it sent " + to_string(f.type) + " while the server was in state " +
                       to_string(m_state));
}

void server_handshake::on_hello(const frame& f, handshake_output& out) {
  const auto hello = object_of(f);
  const auto it = hello.find("protocol");
  const std::int64_t protocol =
      it != hello.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
  m_client_tool = core::escape_untrusted(string_field(hello, "tool", "?"), 64);
  if (protocol != protocol_version || m_client_tool != m_config.tool_version)
    throw protocol_error(fmt::format(
        "version mismatch: client {} runs gpubench {} (control protocol {}), this server runs "
        "gpubench {} (control protocol {}); run the same version on both hosts",
        m_peer, m_client_tool, protocol, m_config.tool_version, protocol_version));
  m_client_nonce = string_field(hello, "nonce", "");
  if (m_client_nonce.size() > 256) throw protocol_error("its nonce is over 256 characters");
  m_state = handshake_state::hello_received;
  out.log.push_back(fmt::format("hello from {} (gpubench {})", m_peer, m_client_tool));
}

handshake_output server_handshake::accept() {
  handshake_output out;
  if (m_state != handshake_state::hello_received) return out;
  append_frame(out, message::challenge,
               {{"protocol", protocol_version},
                {"tool", m_config.tool_version},
                {"auth", !m_config.token.empty()},
                {"nonce", m_config.server_nonce}});
  m_state = handshake_state::awaiting_auth;
  return out;
}

void server_handshake::on_auth(const frame& f, handshake_output& out) {
  const auto proof = object_of(f);
  const bool auth = !m_config.token.empty();
  if (auth && !equal_constant_time(
                  string_field(proof, "mac", ""),
                  auth_mac(m_config.token, "client", m_client_nonce, m_config.server_nonce)))
    throw protocol_error("authentication failed: the client's token does not match the server's");
  append_frame(
      out, message::welcome,
      {{"mac",
        auth ? auth_mac(m_config.token, "server", m_client_nonce, m_config.server_nonce) : ""}});
  m_state = handshake_state::established;
  out.log.push_back("session from " + m_peer + (auth ? " (token proven)" : ""));
}

handshake_output server_handshake::refuse_busy(const std::string& why) {
  handshake_output out;
  if (m_state == handshake_state::failed || m_state == handshake_state::established) return out;
  append_frame(out, message::busy, {{"message", why}});
  m_state = handshake_state::failed;
  m_failure = "busy";
  out.log.push_back("refused " + m_peer + ": " + why);
  return out;
}

handshake_output server_handshake::fail(const std::string& why) {
  handshake_output out;
  if (m_state != handshake_state::failed && m_state != handshake_state::established)
    fail_into(why, out);
  return out;
}

void server_handshake::fail_into(const std::string& why, handshake_output& out) {
  m_failure = core::escape_untrusted(why, 400);
  m_state = handshake_state::failed;
  append_frame(out, message::error, {{"message", m_failure}});
  out.log.push_back("dropped " + m_peer + " during the handshake: " + m_failure);
}

}  // namespace gpubench::transports::control

#include "transports/control/client.hpp"

#include <exception>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/version.hpp"
#include "transports/control/auth.hpp"

namespace gpubench::transports::control {

namespace {

std::string string_or_empty(const nlohmann::json& body, const char* key) {
  const auto it = body.find(key);
  return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

client_session::client_session(const net::endpoint_address& peer, const client_options& options)
    : m_options(options), m_peer(peer.text()) {
  m_channel = std::make_unique<control_channel>(
      net::connect_tcp(peer, options.connect_timeout, options.interrupted), "peer");
  const auto t = options.io_timeout;
  const std::string client_nonce = make_nonce();
  m_channel->send_json(
      message::hello,
      {{"protocol", protocol_version}, {"tool", core::tool_version}, {"nonce", client_nonce}});
  const auto challenge = m_channel->expect_json(message::challenge, t, "handshaking");
  m_server_version = core::escape_untrusted(string_or_empty(challenge, "tool"), 64);
  if (m_server_version != core::tool_version) {
    const auto why = fmt::format(
        "version mismatch: peer {} runs gpubench {}, this is gpubench {}; run the same version "
        "on both hosts",
        m_peer, m_server_version, core::tool_version);
    m_channel->send_error(why);
    throw protocol_error(why);
  }
  const auto auth_field = challenge.find("auth");
  const bool auth_required =
      auth_field != challenge.end() && auth_field->is_boolean() && auth_field->get<bool>();
  const std::string server_nonce = string_or_empty(challenge, "nonce");
  if (auth_required && options.token.empty()) {
    m_channel->send_error("no token: the client has no --token-file");
    throw peer_error("peer " + m_peer +
                     " requires authentication: give the shared token with --token-file");
  }
  // With a token the server must prove it too: a server that asks for none (or an impostor
  // that cannot compute the proof) could feed this run results of its own making.
  if (!options.token.empty() && !auth_required) {
    m_channel->send_error("this client has a token and requires the server to prove it");
    throw authentication_error(
        "peer " + m_peer +
        " does not ask for a token although this client has --token-file: it cannot prove it "
        "is the server you expect, so it is not used (run it with the same --token-file)");
  }
  if (auth_required && server_nonce.empty()) {
    m_channel->send_error("the challenge has no nonce");
    throw authentication_error("peer " + m_peer + " sent a challenge without a nonce");
  }
  m_channel->send_json(
      message::auth,
      {{"mac",
        auth_required ? auth_mac(options.token, "client", client_nonce, server_nonce) : ""}});
  nlohmann::json welcome;
  try {
    welcome = m_channel->expect_json(message::welcome, t, "authenticating");
  } catch (const peer_error& e) {
    if (!auth_required) throw;
    throw authentication_error(e.what());  // the server refused our proof
  }
  if (auth_required &&
      !equal_constant_time(string_or_empty(welcome, "mac"),
                           auth_mac(options.token, "server", client_nonce, server_nonce))) {
    m_channel->send_error("the server's proof of the token is wrong");
    throw authentication_error("peer " + m_peer +
                               " could not prove it knows the token: it is not the server you "
                               "expect (or its --token-file differs)");
  }
}

client_session::~client_session() {
  if (!m_channel) return;
  try {
    m_endpoint.reset();
    m_channel->send_json(message::bye, nlohmann::json::object());
  } catch (...) {
    // The peer may be gone; there is nothing left to tell it.
  }
}

void client_session::open_case(const transport_entry& transport, const nlohmann::json& params) {
  m_endpoint.reset();
  m_channel->send_json(message::case_open, {{"transport", transport.name}, {"params", params}});
  endpoint_setup setup;
  setup.params = params;
  setup.oob = m_channel.get();
  setup.io_timeout = m_options.io_timeout;
  setup.interrupted = m_options.interrupted;
  try {
    m_endpoint = transport.make_active(setup);
  } catch (const peer_error&) {
    throw;
  } catch (const std::exception& e) {
    m_channel->send_error(std::string("the client could not set up its side: ") + e.what());
    throw;
  }
  const auto ready =
      m_channel->expect_json(message::case_ready, m_options.io_timeout, "setting up the case");
  m_server_context = ready.value("context", nlohmann::json::object());
}

void client_session::close_case() {
  m_endpoint.reset();
  m_channel->send_json(message::case_close, nlohmann::json::object());
}

active_endpoint& client_session::endpoint() {
  if (!m_endpoint) throw std::logic_error("client_session: no case is open");
  return *m_endpoint;
}

void client_session::begin_point(const point_spec& spec) {
  endpoint().prepare(spec);
  m_channel->send_json(message::point_begin, to_json(spec));
  m_channel->expect_json(message::point_ready, m_options.io_timeout, "starting a point");
  m_machine_cpu.restart();
}

point_cost client_session::end_point() {
  nlohmann::json end = nlohmann::json::object();
  if (const auto sent = endpoint().sent_messages()) end["messages"] = *sent;
  m_channel->send_json(message::point_end, end);
  point_cost cost;
  // A point this side fails at its end (an RDMA port event) still takes the server's totals,
  // so the session stays in step for the next case.
  std::exception_ptr failed;
  try {
    cost.client = endpoint().finish();
  } catch (const std::exception&) {
    failed = std::current_exception();
  }
  cost.server = point_totals_from_json(
      m_channel->expect_json(message::point_done, m_options.io_timeout, "ending a point"));
  if (failed) std::rethrow_exception(failed);
  cost.client.machine_cpu_time = m_machine_cpu.elapsed();
  cost.client.machine = core::machine_id();
  return cost;
}

}  // namespace gpubench::transports::control

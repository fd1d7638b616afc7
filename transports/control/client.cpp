#include "transports/control/client.hpp"

#include <fmt/format.h>

#include "core/version.hpp"
#include "transports/control/auth.hpp"

namespace gpubench::transports::control {

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
  m_server_version = challenge.value("tool", "");
  if (m_server_version != core::tool_version) {
    const auto why = fmt::format(
        "version mismatch: peer {} runs gpubench {}, this is gpubench {}; run the same version "
        "on both hosts",
        m_peer, m_server_version, core::tool_version);
    m_channel->send_error(why);
    throw protocol_error(why);
  }
  const bool auth_required = challenge.value("auth", false);
  const std::string server_nonce = challenge.value("nonce", "");
  if (auth_required && options.token.empty()) {
    m_channel->send_error("no token: the client has no --token-file");
    throw peer_error("peer " + m_peer +
                     " requires authentication: give the shared token with --token-file");
  }
  const bool prove = auth_required && !options.token.empty();
  m_channel->send_json(
      message::auth,
      {{"mac", prove ? auth_mac(options.token, "client", client_nonce, server_nonce) : ""}});
  const auto welcome = m_channel->expect_json(message::welcome, t, "authenticating");
  if (prove && !equal_constant_time(welcome.value("mac", ""),
                                    auth_mac(options.token, "server", client_nonce, server_nonce)))
    throw peer_error("peer " + m_peer +
                     " could not prove it knows the token: it is not the server you expect");
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
}

point_cost client_session::end_point() {
  m_channel->send_json(message::point_end, nlohmann::json::object());
  point_cost cost;
  cost.client = endpoint().finish();
  cost.server = point_totals_from_json(
      m_channel->expect_json(message::point_done, m_options.io_timeout, "ending a point"));
  return cost;
}

}  // namespace gpubench::transports::control

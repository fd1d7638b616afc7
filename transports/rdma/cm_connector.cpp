// The rdma_cm connector (see cm_connector.hpp), built when librdmacm is found.
#include "transports/rdma/cm_connector.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "core/errors.hpp"
#include "transports/control/channel.hpp"
#include "transports/net/socket.hpp"
#include "transports/rdma/cm_loopback.hpp"
#include "transports/rdma/cm_protocol.hpp"
#include "transports/rdma/rdma_settings.hpp"
#include "transports/rdma/verbs.hpp"

namespace gpubench::transports::rdma {

namespace {

using std::chrono::milliseconds;
using clock_type = std::chrono::steady_clock;

// cm_event mirrors the library's enum so its texts can be tested without the library.
static_assert(static_cast<int>(cm_event::addr_resolved) == RDMA_CM_EVENT_ADDR_RESOLVED);
static_assert(static_cast<int>(cm_event::connect_request) == RDMA_CM_EVENT_CONNECT_REQUEST);
static_assert(static_cast<int>(cm_event::rejected) == RDMA_CM_EVENT_REJECTED);
static_assert(static_cast<int>(cm_event::established) == RDMA_CM_EVENT_ESTABLISHED);
static_assert(static_cast<int>(cm_event::timewait_exit) == RDMA_CM_EVENT_TIMEWAIT_EXIT);

struct channel_deleter {
  void operator()(rdma_event_channel* c) const noexcept { rdma_destroy_event_channel(c); }
};
struct id_deleter {
  // Teardown errors cannot be acted on here; the id is gone either way.
  void operator()(rdma_cm_id* id) const noexcept { static_cast<void>(rdma_destroy_id(id)); }
};
using channel_ptr = std::unique_ptr<rdma_event_channel, channel_deleter>;
using id_ptr = std::unique_ptr<rdma_cm_id, id_deleter>;

// What an event said, copied out before it is acknowledged (the event's memory goes then).
struct event_copy {
  cm_event type = cm_event::addr_resolved;
  int status = 0;
  rdma_cm_id* id = nullptr;
  cm_depths conn;  // the peer's depths of a CONNECT_REQUEST
};

// "what: strerror (errno N)" for a failed rdma_cm call.
[[noreturn]] void throw_cm(const std::string& call, const std::string& peer, int err) {
  throw std::runtime_error("rdma_cm: " + call + " (peer " + peer + "): " + std::strerror(err) +
                           " (errno " + std::to_string(err) + ")");
}

// A numeric address and port as a socket address; empty host: the wildcard of `family`.
sockaddr_storage socket_address(const std::string& host, int family, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | (host.empty() ? AI_PASSIVE : 0);
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &res);
      rc != 0 || !res)
    throw std::runtime_error("rdma_cm: address '" + host + "': " + gai_strerror(rc));
  sockaddr_storage out{};
  std::memcpy(&out, res->ai_addr, std::min<std::size_t>(res->ai_addrlen, sizeof out));
  freeaddrinfo(res);
  return out;
}

int family_of(const std::string& numeric) {
  return numeric.find(':') != std::string::npos ? AF_INET6 : AF_INET;
}

class cm_connection final : public qp_connector {
 public:
  cm_connection(cm_role role, const endpoint_setup& setup)
      : m_role(role),
        m_timeout(std::max(setup.io_timeout, milliseconds(1000))),
        m_interrupted(setup.interrupted),
        m_oob(setup.oob),
        m_peer(setup.oob->peer_name()),
        m_params(setup.params) {
    // While neither side has anything to say on the control channel, a message there can only
    // be the other side giving up: watched, it ends a wait at once with the peer's reason.
    if (const auto* control = dynamic_cast<const control::control_channel*>(setup.oob))
      m_control_fd = control->fd();
    m_channel.reset(rdma_create_event_channel());
    if (!m_channel) {
      const int err = errno;
      // No rdma_cm device node (no RDMA stack or rdma_ucm not loaded): a missing requirement.
      if (err == ENOENT || err == ENODEV || err == ENOSYS || err == ENXIO)
        throw core::skip_case(
            "--rdma-cm on: rdma_create_event_channel failed: " + std::string(std::strerror(err)) +
            " (no rdma_cm device: is the rdma_ucm module loaded?)");
      throw_cm("rdma_create_event_channel", m_peer, err);
    }
    // Non-blocking, so every wait is a bounded poll().
    const int flags = fcntl(m_channel->fd, F_GETFL);
    if (flags < 0 || fcntl(m_channel->fd, F_SETFL, flags | O_NONBLOCK) < 0)
      throw_cm("fcntl O_NONBLOCK on the event channel", m_peer, errno);
    if (role == cm_role::passive)
      listen(*setup.oob);
    else
      resolve(*setup.oob);
  }

  ibv_context* context() const override { return m_id->verbs; }
  int port() const override { return m_id->port_num; }

  ibv_qp* create_qp(ibv_pd* pd, ibv_qp_init_attr& init) override {
    if (rdma_create_qp(m_id.get(), pd, &init) != 0) return nullptr;  // errno is set
    return m_id->qp;
  }
  void destroy_qp() noexcept override {
    if (m_id && m_id->qp) rdma_destroy_qp(m_id.get());
  }

  void establish() override {
    ibv_device_attr da{};
    if (int rc = ibv_query_device(m_id->verbs, &da); rc != 0)
      throw_verbs("ibv_query_device", ibv_get_device_name(m_id->verbs->device), rc);
    const cm_depths own =
        request_depths(default_out_reads, da.max_qp_rd_atom, da.max_qp_init_rd_atom);
    m_depths = m_role == cm_role::active ? own : accept_depths(own, m_request);
    // The ACK timeout of the control channel path (4.096 us * 2^14, about 67 ms per retry),
    // so both paths retry alike; kernels without the option keep rdma_cm's own value.
    std::uint8_t ack_timeout = 14;
    m_ack_timeout_set = rdma_set_option(m_id.get(), RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
                                        &ack_timeout, sizeof ack_timeout) == 0;
    rdma_conn_param p{};
    p.responder_resources = m_depths.responder_resources;
    p.initiator_depth = m_depths.initiator_depth;
    p.retry_count = 7;      // as the control channel path: transport retries, then an error
    p.rnr_retry_count = 7;  // retry forever on RNR; every wait of ours is bounded instead
    if (m_role == cm_role::active) {
      if (rdma_connect(m_id.get(), &p) != 0) throw_cm("rdma_connect", m_peer, errno);
      wait_for(cm_event::established, "connecting");
    } else {
      if (rdma_accept(m_id.get(), &p) != 0) throw_cm("rdma_accept", m_peer, errno);
      wait_for(cm_event::established, "accepting the connection");
    }
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["connection"] = "rdma_cm";
    j["rdma_cm"] = {{"peer", m_peer},
                    {"port", m_port},
                    {"responder_resources", m_depths.responder_resources},
                    {"initiator_depth", m_depths.initiator_depth},
                    {"ack_timeout", m_ack_timeout_set ? "14 (set)" : "rdma_cm's default"}};
    // The passive side takes both from the client's request (its QP's traffic class is in
    // the context's qp_attributes).
    if (m_role == cm_role::active) {
      j["rdma_cm"]["tos"] = m_tos ? std::to_string(*m_tos) + " (set, --rdma-tclass)"
                                  : std::string("rdma_cm's default");
      j["rdma_cm"]["source_address"] =
          m_source ? *m_source + " (the control connection's)" : std::string("chosen by rdma_cm");
    }
    if (!m_loopback_device.empty()) j["rdma_cm"]["loopback_address_of"] = m_loopback_device;
    return j;
  }
  std::string peer_name() const override { return m_peer; }

 private:
  void listen(oob_channel& oob) {
    const std::string local = cm_address(oob.local_address());
    rdma_cm_id* id = nullptr;
    if (rdma_create_id(m_channel.get(), &id, nullptr, RDMA_PS_TCP) != 0)
      throw_cm("rdma_create_id", m_peer, errno);
    m_listen.reset(id);
    // The wildcard of the control connection's family: the client resolves the address it
    // reached this server on.
    sockaddr_storage any = socket_address("", family_of(local), 0);
    if (rdma_bind_addr(id, reinterpret_cast<sockaddr*>(&any)) != 0)
      throw_cm("rdma_bind_addr (wildcard, ephemeral port)", m_peer, errno);
    if (rdma_listen(id, 1) != 0) throw_cm("rdma_listen", m_peer, errno);
    m_port = ntohs(rdma_get_src_port(id));
    oob.send_blob(encode_cm_port(m_port));
    // The client resolves the address and the route first, each bounded by the I/O timeout.
    const event_copy e = wait_for(cm_event::connect_request, "waiting for the client to connect",
                                  3 * m_timeout, true);
    m_id.reset(e.id);
    m_request = e.conn;
  }

  void resolve(oob_channel& oob) {
    m_port = decode_cm_port(oob.receive_blob(m_timeout));
    std::string host = cm_address(oob.peer_address());
    const bool loopback = is_loopback_address(host);
    if (loopback) host = loopback_target(host);
    m_peer = net::endpoint_address{host, m_port}.text();
    rdma_cm_id* id = nullptr;
    if (rdma_create_id(m_channel.get(), &id, nullptr, RDMA_PS_TCP) != 0)
      throw_cm("rdma_create_id", m_peer, errno);
    m_id.reset(id);
    // --rdma-tclass: the type of service goes on the id before the route is resolved, which
    // builds the address handle from it (the passive side takes it from the request). 0
    // leaves rdma_cm's default (the kernel's configured ToS).
    if (const std::uint8_t tos = settings_from(m_params).tclass; tos != 0) {
      std::uint8_t value = tos;
      if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &value, sizeof value) != 0)
        throw_cm("rdma_set_option RDMA_OPTION_ID_TOS " + std::to_string(tos), m_peer, errno);
      m_tos = tos;
    }
    sockaddr_storage dst = socket_address(host, family_of(host), m_port);
    // From the control connection's own address, so rdma_cm binds the device behind it.
    sockaddr_storage src{};
    m_source = cm_source_address(oob.local_address(), host, loopback);
    if (m_source) src = socket_address(*m_source, family_of(*m_source), 0);
    const int ms = static_cast<int>(std::min<long long>(m_timeout.count(), INT_MAX));
    if (rdma_resolve_addr(id, m_source ? reinterpret_cast<sockaddr*>(&src) : nullptr,
                          reinterpret_cast<sockaddr*>(&dst), ms) != 0)
      throw_cm("rdma_resolve_addr" + (m_source ? " from " + *m_source : std::string()), m_peer,
               errno);
    wait_for(cm_event::addr_resolved, "resolving the address", m_timeout, true);
    if (rdma_resolve_route(id, ms) != 0) throw_cm("rdma_resolve_route", m_peer, errno);
    wait_for(cm_event::route_resolved, "resolving the route", m_timeout, true);
    if (!id->verbs)
      throw std::runtime_error("rdma_cm resolved " + m_peer + " but bound no RDMA device");
  }

  // In loopback (see cm_loopback.hpp): the address of the device this side would open. The
  // passive side listens on the wildcard address, so it is reached there too.
  std::string loopback_target(const std::string& control_host) {
    const auto side = settings_from(m_params).client;
    const opened_port p = open_port(side.device, side.port);
    if (auto address = loopback_cm_address(p.gids)) {
      m_loopback_device = p.device_name;
      return *address;
    }
    throw std::runtime_error("rdma_cm in loopback: the control connection runs over " +
                             control_host + ", and port " + std::to_string(p.port) + " of " +
                             p.device_name +
                             " has no IP address to resolve instead (no IPv4 or global IPv6 "
                             "GID): give its netdev an address, or use --rdma-cm off");
  }

  // The next event, which must be `expected`; anything else (REJECTED, UNREACHABLE, ...) or
  // silence for `limit` throws naming the event, its status and the peer. With
  // `watch_control`, a message on the control channel ends the wait too (see above): never
  // while a connection is being established, when the peer's endpoint blob may arrive.
  event_copy wait_for(cm_event expected, const std::string& doing) {
    return wait_for(expected, doing, m_timeout, false);
  }
  event_copy wait_for(cm_event expected, const std::string& doing, milliseconds limit,
                      bool watch_control) {
    const auto end = clock_type::now() + limit;
    for (;;) {
      rdma_cm_event* ev = nullptr;
      if (rdma_get_cm_event(m_channel.get(), &ev) == 0) {
        event_copy e;
        e.type = static_cast<cm_event>(ev->event);
        e.status = ev->status;
        e.id = ev->id;
        // Stated from this side's view already (see accept_depths).
        e.conn = {ev->param.conn.responder_resources, ev->param.conn.initiator_depth};
        rdma_ack_cm_event(ev);
        if (e.type == expected && e.status == 0) return e;
        if (e.type == cm_event::connect_request) {
          // A stranger on our ephemeral port: turn it away and keep waiting.
          static_cast<void>(rdma_reject(e.id, nullptr, 0));
          static_cast<void>(rdma_destroy_id(e.id));
          continue;
        }
        throw std::runtime_error(cm_event_error(expected, e.type, e.status, m_peer, doing));
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        throw_cm("rdma_get_cm_event", m_peer, errno);
      if (m_interrupted && m_interrupted()) throw core::interrupted();
      const auto left = std::chrono::duration_cast<milliseconds>(end - clock_type::now()).count();
      if (left <= 0) throw std::runtime_error(cm_timeout_error(expected, m_peer, doing, limit));
      pollfd pfd[2] = {{m_channel->fd, POLLIN, 0}, {m_control_fd, POLLIN, 0}};
      const nfds_t n = watch_control && m_control_fd >= 0 ? 2 : 1;
      // Short slices, so an interrupt is noticed while waiting.
      if (poll(pfd, n, static_cast<int>(std::min<long long>(left, 200))) < 0 && errno != EINTR)
        throw_cm("poll on the event channel", m_peer, errno);
      if (n == 2 && pfd[1].revents != 0) {
        // Throws with the peer's words when it gave up; anything else is out of turn.
        m_oob->receive_blob(m_timeout);
        throw std::runtime_error("rdma_cm: " + m_peer + " sent a message while " + doing +
                                 ", before " + to_string(expected));
      }
    }
  }

  cm_role m_role;
  milliseconds m_timeout;
  std::function<bool()> m_interrupted;
  oob_channel* m_oob;
  int m_control_fd = -1;
  std::string m_peer;
  nlohmann::json m_params;
  std::string m_loopback_device;  // loopback: the device whose address rdma_cm resolved
  std::uint16_t m_port = 0;
  cm_depths m_request;  // passive: the depths the client's CONNECT_REQUEST asked for
  cm_depths m_depths;   // what this side asked for (active) or accepted (passive)
  bool m_ack_timeout_set = false;
  std::optional<std::uint8_t> m_tos;    // active side: the ToS set on the id
  std::optional<std::string> m_source;  // active side: the address resolved from
  // Destroyed in reverse: the connected id, the listening id, then the channel they use.
  channel_ptr m_channel;
  id_ptr m_listen;
  id_ptr m_id;
};

}  // namespace

std::unique_ptr<qp_connector> make_cm_connector(cm_role role, const endpoint_setup& setup) {
  if (!setup.oob) throw std::logic_error("rdma_cm connector built without a control channel");
  return std::make_unique<cm_connection>(role, setup);
}

}  // namespace gpubench::transports::rdma

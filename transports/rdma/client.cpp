// The active side of an RDMA session: connects to the passive side (a peer's serve, or a
// loopback thread on the same device) and runs the latency and bandwidth loops of perftest.
#include <cstring>
#include <stdexcept>
#include <thread>

#include "core/errors.hpp"
#include "transports/rdma/rdma_backend.hpp"
#include "transports/rdma/session_util.hpp"

namespace gpubench::transports::rdma {

namespace {

// The loopback's passive side: serve_rdma_session on a thread, joined on destruction.
class loopback_server {
 public:
  loopback_server(std::unique_ptr<message_link> link, rdma_options options)
      : m_link(std::move(link)), m_thread([this, options] {
          try {
            serve_rdma_session(*m_link, options);
          } catch (const std::exception&) {
            // Already reported to the client through the link.
          }
          m_link->close();
        }) {}
  ~loopback_server() {
    m_link->close();
    m_thread.join();
  }
  loopback_server(const loopback_server&) = delete;
  loopback_server& operator=(const loopback_server&) = delete;

 private:
  std::unique_ptr<message_link> m_link;
  std::thread m_thread;
};

class verbs_client final : public rdma_client {
 public:
  verbs_client(const client_request& req, std::unique_ptr<message_link> link,
               std::unique_ptr<loopback_server> server, nlohmann::json where)
      : m_req(req), m_server(std::move(server)), m_link(std::move(link)) {
    if (req.test == test_kind::latency && req.op == rdma_op::write &&
        req.options.memory == memory_kind::cuda)
      throw core::skip_case(
          "write latency polls the last byte of GPU memory with the CPU, which GPUDirect does "
          "not allow: use --rdma-op send or read with --rdma-memory cuda");
    session_request s;
    s.test = req.test;
    s.op = req.op;
    s.memory = req.options.memory;
    s.max_size = req.max_size;
    s.tx_depth = req.options.tx_depth;
    s.rx_depth = recv_depth(req.test, req.op, req.options.tx_depth, 16384);
    m_link->send(encode(s));  // the passive side builds its endpoint meanwhile

    endpoint_config c;
    c.test = req.test;
    c.op = req.op;
    c.memory = req.options.memory;
    c.max_size = req.max_size;
    c.tx_depth = req.options.tx_depth;
    c.inline_size = req.options.inline_size;
    c.device = req.options.device;
    c.port = req.options.port;
    c.gid_index = req.options.gid_index;
    m_ep = std::make_unique<endpoint>(c);
    m_signal_every = signal_interval(req.options.cq_mod, m_ep->tx_depth());

    const auto answer = m_link->receive(control_timeout);
    if (is_command(answer)) {
      const auto cmd = decode_command(answer);
      if (cmd.type == command_type::failed && cmd.size == 1) throw core::skip_case(cmd.text);
      throw std::runtime_error(cmd.text.empty() ? "the RDMA peer refused the session" : cmd.text);
    }
    m_ep->connect(decode_endpoint_info(answer));
    m_link->send(encode(m_ep->local_info()));
    for (std::uint32_t i = 0; i < m_ep->rx_depth(); ++i)
      m_ep->post_recv(i);
    // The barrier: the peer's QP is in RTS with its receives posted before any traffic.
    expect_command(*m_link, command_type::ready, control_timeout, "connecting RDMA queue pairs");
    m_where = std::move(where);
  }

  ~verbs_client() override {
    try {
      m_link->send(encode(command{command_type::end_session, 0, 0, {}}));
    } catch (const std::exception&) {
      // The peer is already gone; nothing more to tell it.
    }
    m_link->close();
  }

  nlohmann::json context() const override {
    nlohmann::json j = m_ep->describe();
    j.update(m_where);
    j["remote_qpn"] = m_ep->peer().qpn;
    if (m_req.op == rdma_op::read && m_req.test == test_kind::latency)
      j["latency_basis"] = "one RDMA read is a full round trip: reported whole, not halved";
    else if (m_req.test == test_kind::latency)
      j["latency_basis"] = "ping-pong round trip / 2";
    if (m_req.test == test_kind::bandwidth) {
      j["cq_mod"] = m_signal_every;
      j["timing"] = "first post to last completion, requester side";
    }
    return j;
  }

  std::optional<core::peak_info> peak() const override {
    const auto r = m_ep->rate();
    if (!r) return std::nullopt;
    return core::peak_info{r->gbyte_per_s, "GB/s", r->basis};
  }

  std::uint32_t tx_depth() const override { return m_ep->tx_depth(); }

  void begin_point(std::uint64_t size) override {
    if (size == 0 || size > m_req.max_size)
      throw std::logic_error("RDMA point size outside the session's buffers");
    m_size = size;
    m_sent = 0;
    m_bytes = 0;
    m_mark = 0;
    if (m_req.test == test_kind::latency && m_req.op == rdma_op::write) {
      std::memset(m_ep->target(), 0, size);
      std::memset(m_ep->source(), 0, size);
    }
    m_link->send(encode(command{command_type::begin_point, size, 0, {}}));
    expect_command(*m_link, command_type::ready, control_timeout, "starting a point");
    m_cpu0 = thread_cpu_seconds();
  }

  void latency_round() override {
    switch (m_req.op) {
      case rdma_op::send: {
        m_ep->post(rdma_op::send, m_size, ++m_sent, true);
        const ibv_wc reply = wait_recv(*m_ep, "send latency");
        m_ep->post_recv(reply.wr_id);  // keep the receive queue full
        wait_send(*m_ep, "send latency");
        m_bytes += 2.0 * static_cast<double>(m_size);
        break;
      }
      case rdma_op::write: {
        m_mark = next_mark(m_mark);
        m_ep->source()[m_size - 1] = static_cast<std::byte>(m_mark);
        m_ep->post(rdma_op::write, m_size, ++m_sent, true);
        wait_send(*m_ep, "write latency");
        volatile const std::uint8_t* last =
            reinterpret_cast<volatile const std::uint8_t*>(m_ep->target() + m_size - 1);
        spin_deadline deadline(data_timeout_seconds);
        while (*last != m_mark)
          if (deadline.expired())
            throw std::runtime_error("write latency: the peer's reply did not arrive within " +
                                     std::to_string(static_cast<int>(data_timeout_seconds)) + " s");
        m_bytes += 2.0 * static_cast<double>(m_size);
        break;
      }
      case rdma_op::read:
        m_ep->post(rdma_op::read, m_size, ++m_sent, true);
        wait_send(*m_ep, "read latency");
        m_bytes += static_cast<double>(m_size);
        break;
    }
  }

  void bandwidth_burst(std::uint32_t iterations) override {
    // perftest's run_iter_bw: keep up to tx_depth WRs outstanding, signal one in every
    // cq_mod and always the last; RC completes in order, so a signalled WR's id says how
    // many are done.
    const std::uint64_t base = m_sent;
    const std::uint64_t end = base + iterations;
    const std::uint64_t depth = m_ep->tx_depth();
    std::uint64_t posted = base, completed = base;
    ibv_wc wc[16];
    spin_deadline deadline(data_timeout_seconds);
    while (completed < end) {
      while (posted < end && posted - completed < depth) {
        ++posted;
        const bool signal = (posted - base) % m_signal_every == 0 || posted == end;
        m_ep->post(m_req.op, m_size, posted, signal);
      }
      const int n = m_ep->poll_send(wc);
      for (int i = 0; i < n; ++i)
        completed = std::max<std::uint64_t>(completed, wc[i].wr_id);
      if (n > 0)
        deadline = spin_deadline(data_timeout_seconds);
      else if (deadline.expired())
        throw std::runtime_error(
            to_string(m_req.op) + " bandwidth: " + std::to_string(completed - base) + " of " +
            std::to_string(iterations) + " work requests completed, then " + "none for " +
            std::to_string(static_cast<int>(data_timeout_seconds)) + " s");
    }
    m_sent = end;
    m_bytes += static_cast<double>(iterations) * static_cast<double>(m_size);
  }

  point_cost end_point() override {
    point_cost cost;
    cost.client_cpu_seconds = thread_cpu_seconds() - m_cpu0;
    cost.bytes = m_bytes;
    m_link->send(encode(command{command_type::stop, m_sent, 0, {}}));
    cost.server_cpu_seconds =
        expect_command(*m_link, command_type::stopped, control_timeout, "ending a point")
            .cpu_seconds;
    return cost;
  }

 private:
  client_request m_req;
  std::unique_ptr<loopback_server> m_server;  // joined last
  std::unique_ptr<message_link> m_link;
  std::unique_ptr<endpoint> m_ep;
  nlohmann::json m_where;
  std::uint32_t m_signal_every = 1;
  std::uint64_t m_size = 0, m_sent = 0;
  double m_bytes = 0, m_cpu0 = 0;
  std::uint8_t m_mark = 0;
};

}  // namespace

std::unique_ptr<rdma_client> open_loopback_client(const client_request& request) {
  auto [mine, theirs] = make_local_link_pair();
  auto server = std::make_unique<loopback_server>(std::move(theirs), request.options);
  return std::make_unique<verbs_client>(
      request, std::move(mine), std::move(server),
      nlohmann::json{{"connection", "loopback: client and server on the same device"}});
}

std::unique_ptr<rdma_client> open_remote_client(const client_request& request,
                                                std::unique_ptr<message_link> link) {
  return std::make_unique<verbs_client>(request, std::move(link), nullptr,
                                        nlohmann::json{{"connection", "peer"}});
}

}  // namespace gpubench::transports::rdma

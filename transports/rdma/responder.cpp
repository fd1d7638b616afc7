// The passive side of an RDMA session (the peer's `gpubench serve`, or the loopback thread):
// builds its endpoint from the request, connects, and answers each point until told to stop.
#include <cstring>
#include <stdexcept>

#include "core/errors.hpp"
#include "transports/rdma/rdma_backend.hpp"
#include "transports/rdma/session_util.hpp"

namespace gpubench::transports::rdma {

namespace {

class responder {
 public:
  responder(endpoint& ep, const session_request& req, message_link& link)
      : m_ep(ep), m_req(req), m_link(link) {}

  // False when the active side ended the session instead of the point (it was interrupted).
  bool serve_point(std::uint64_t size) {
    if (size > m_req.max_size)
      throw std::runtime_error("point of " + std::to_string(size) +
                               " bytes is larger than the session's buffers");
    if (m_req.test == test_kind::latency && m_req.op == rdma_op::write) {
      std::memset(m_ep.target(), 0, size);
      std::memset(m_ep.source(), 0, size);
    }
    const double cpu0 = thread_cpu_seconds();
    m_link.send(encode(command{command_type::ready, 0, 0, {}}));
    if (m_req.test == test_kind::latency && m_req.op == rdma_op::send)
      answer_sends(size);
    else if (m_req.test == test_kind::latency && m_req.op == rdma_op::write)
      answer_writes(size);
    else if (m_req.op == rdma_op::send)
      receive_stream();
    else
      // Reads and writes need no CPU on this side: it only waits for the end of the point.
      m_last = decode_command(m_link.receive(command_timeout));
    if (m_last.type == command_type::end_session) return false;
    if (m_last.type != command_type::stop)
      throw std::runtime_error("expected the end of the point, got command " +
                               std::to_string(static_cast<int>(m_last.type)));
    m_link.send(encode(command{command_type::stopped, 0, thread_cpu_seconds() - cpu0, {}}));
    return true;
  }

 private:
  // True when a command (stop, or the end of the session) arrived while idle; it is kept
  // in m_last.
  bool stop_if_idle(std::uint32_t& idle) {
    if (++idle < idle_polls_before_check) return false;
    idle = 0;
    auto m = m_link.try_receive();
    if (!m) return false;
    m_last = decode_command(*m);
    return true;
  }

  void answer_sends(std::uint64_t size) {
    ibv_wc wc{};
    std::uint32_t idle = 0;
    for (;;) {
      if (m_ep.poll_recv({&wc, 1}) == 1) {
        m_ep.post_recv(wc.wr_id);
        m_ep.post(rdma_op::send, size, ++m_wr, true);
        wait_send(m_ep, "send latency reply");
        idle = 0;
      } else if (stop_if_idle(idle)) {
        return;
      }
    }
  }

  void answer_writes(std::uint64_t size) {
    volatile const std::uint8_t* last =
        reinterpret_cast<volatile const std::uint8_t*>(m_ep.target() + size - 1);
    std::uint8_t mark = 0;
    std::uint32_t idle = 0;
    for (;;) {
      const std::uint8_t want = next_mark(mark);
      if (*last == want) {
        mark = want;
        m_ep.source()[size - 1] = static_cast<std::byte>(mark);
        m_ep.post(rdma_op::write, size, ++m_wr, true);
        wait_send(m_ep, "write latency reply");
        idle = 0;
      } else if (stop_if_idle(idle)) {
        return;
      }
    }
  }

  void receive_stream() {
    ibv_wc wc[32];
    std::uint64_t received = 0;
    std::uint32_t idle = 0;
    bool stopping = false;
    spin_deadline drain(data_timeout_seconds);
    for (;;) {
      const int n = m_ep.poll_recv(wc);
      for (int i = 0; i < n; ++i)
        m_ep.post_recv(wc[i].wr_id);
      received += static_cast<std::uint64_t>(n);
      if (n > 0) idle = 0;
      if (!stopping && n == 0 && stop_if_idle(idle)) {
        if (m_last.type != command_type::stop) return;
        stopping = true;
        drain = spin_deadline(data_timeout_seconds);
      }
      // The stop names how many messages were sent: all of them must have arrived.
      if (stopping && received >= m_last.size) return;
      if (stopping && drain.expired())
        throw std::runtime_error("send bandwidth: " + std::to_string(received) + " of " +
                                 std::to_string(m_last.size) + " messages arrived");
    }
  }

  endpoint& m_ep;
  const session_request& m_req;
  message_link& m_link;
  std::uint64_t m_wr = 0;
  command m_last;
};

void serve(message_link& link, const rdma_options& options) {
  const auto req = decode_session_request(link.receive(control_timeout));
  endpoint_config c;
  c.test = req.test;
  c.op = req.op;
  c.memory = req.memory;
  c.max_size = req.max_size;
  c.tx_depth = req.tx_depth;
  c.rx_depth = req.rx_depth;
  c.inline_size = options.inline_size;
  c.device = options.device;
  c.port = options.port;
  c.gid_index = options.gid_index;
  endpoint ep(c);
  link.send(encode(ep.local_info()));
  ep.connect(decode_endpoint_info(link.receive(control_timeout)));
  // Receives are posted before the barrier, so the first message never meets an empty queue.
  for (std::uint32_t i = 0; i < ep.rx_depth(); ++i)
    ep.post_recv(i);
  link.send(encode(command{command_type::ready, 0, 0, {}}));
  responder r(ep, req, link);
  for (;;) {
    const auto cmd = decode_command(link.receive(command_timeout));
    if (cmd.type == command_type::end_session) return;
    if (cmd.type != command_type::begin_point)
      throw std::runtime_error("expected a point or the end of the session, got command " +
                               std::to_string(static_cast<int>(cmd.type)));
    if (!r.serve_point(cmd.size)) return;
  }
}

}  // namespace

void serve_rdma_session(message_link& link, const rdma_options& options) {
  try {
    serve(link, options);
  } catch (const std::exception& e) {
    // Tell the active side why, so its case fails (or skips) with this side's reason.
    try {
      const bool skip = dynamic_cast<const core::skip_case*>(&e) != nullptr;
      link.send(encode(command{command_type::failed, skip ? 1u : 0u, 0,
                               std::string("RDMA server: ") + e.what()}));
    } catch (const std::exception&) {
      // The link itself is gone: the client's own timeout reports it.
    }
    throw;
  }
}

}  // namespace gpubench::transports::rdma

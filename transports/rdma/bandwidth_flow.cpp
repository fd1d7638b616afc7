#include "transports/rdma/bandwidth_flow.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>

#include "transports/rdma/session_util.hpp"

namespace gpubench::transports::rdma {

namespace {

// Sync messages' work request ids carry this bit, so a burst can tell their completions from
// its own, whose ids count the data work requests.
constexpr std::uint64_t sync_wr_bit = 1ull << 63;

}  // namespace

bandwidth_flow::bandwidth_flow(endpoint& ep, rdma_op op, std::uint32_t signal_every,
                               std::chrono::milliseconds timeout)
    : m_ep(ep),
      m_op(op),
      m_signal_every(std::max<std::uint32_t>(signal_every, 1)),
      m_timeout(timeout) {}

void bandwidth_flow::burst(std::uint64_t bytes, std::uint64_t iterations, bool service,
                           responder_watch* watch) {
  const std::uint64_t base = m_wr;
  const std::uint64_t end = base + iterations;
  const std::uint64_t depth = m_ep.tx_depth();
  std::uint64_t posted = base, completed = base;
  ibv_wc wc[16];
  spin_deadline deadline(m_timeout);
  while (completed < end) {
    while (posted < end && posted - completed < depth) {
      ++posted;
      const bool signal = (posted - base) % m_signal_every == 0 || posted == end;
      m_ep.post(m_op, bytes, posted, signal, cycle_offset(bytes, posted, m_ep.largest_message()));
    }
    const int n = m_ep.poll_send(wc);
    // RC completes in order: a signalled work request's id says how many are done.
    for (int i = 0; i < n; ++i)
      if ((wc[i].wr_id & sync_wr_bit) == 0)
        completed = std::max<std::uint64_t>(completed, wc[i].wr_id);
    const int received = service ? service_receives() : 0;
    if (n > 0 || received > 0) {
      deadline = spin_deadline(m_timeout);
      if (watch) watch->progress();
    } else if (watch) {
      if (watch->after_idle(m_ep.idle(event_slice, watch->fd())))
        throw std::runtime_error(to_string(m_op) +
                                 " bandwidth: the client ended the point in the middle of this "
                                 "side's burst");
    } else if (idle_expired(m_ep, deadline)) {
      throw std::runtime_error(to_string(m_op) + " bandwidth: " + std::to_string(completed - base) +
                               " of " + std::to_string(iterations) +
                               " work requests completed, then none for " +
                               std::to_string(m_timeout.count()) + " ms");
    }
  }
  m_wr = end;
}

int bandwidth_flow::service_receives() {
  ibv_wc wc[32];
  std::uint64_t ids[32];
  const int n = m_ep.poll_recv(wc);
  for (int i = 0; i < n; ++i)
    ids[i] = wc[i].wr_id;
  // Every consumed receive goes back at once, as one chained list: one call, not n.
  m_ep.post_recvs(std::span<const std::uint64_t>(ids, static_cast<std::size_t>(n)));
  for (int i = 0; i < n; ++i) {
    if ((wc[i].wc_flags & IBV_WC_WITH_IMM) == 0) {
      ++m_tally.messages;
      continue;
    }
    const std::uint32_t tag = ntohl(wc[i].imm_data);
    if (tag == static_cast<std::uint32_t>(sync_tag::go))
      ++m_tally.go;
    else if (tag == static_cast<std::uint32_t>(sync_tag::done))
      ++m_tally.done;
    else
      throw std::runtime_error("the peer sent an unknown sync mark " + std::to_string(tag));
  }
  return n;
}

void bandwidth_flow::send_mark(sync_tag tag) {
  m_ep.post_sync(static_cast<std::uint32_t>(tag), sync_wr_bit | ++m_marks);
}

void bandwidth_flow::wait_mark(sync_tag tag, const char* what) {
  std::uint64_t& count = tag == sync_tag::go ? m_tally.go : m_tally.done;
  spin_deadline deadline(m_timeout);
  while (count == 0) {
    if (service_receives() > 0) {
      deadline = spin_deadline(m_timeout);
    } else if (idle_expired(m_ep, deadline)) {
      throw std::runtime_error(std::string(what) + ": the peer's mark did not arrive within " +
                               std::to_string(m_timeout.count()) + " ms");
    }
  }
  --count;
}

}  // namespace gpubench::transports::rdma

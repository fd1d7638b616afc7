#include "transports/rdma/pingpong_poster.hpp"

#include <utility>

#include "transports/rdma/params.hpp"
#include "transports/rdma/session_util.hpp"

namespace gpubench::transports::rdma {

pingpong_poster::pingpong_poster(endpoint& ep, std::string what, std::chrono::milliseconds timeout)
    : m_ep(ep),
      m_what(std::move(what)),
      m_timeout(timeout),
      m_every(latency_signal_interval(ep.tx_depth())) {}

void pingpong_poster::post(rdma_op op, std::uint64_t bytes) {
  const bool signalled = ++m_posted % m_every == 0;
  if (signalled && m_unreaped) wait_send(m_ep, m_what, m_timeout);
  m_ep.post(op, bytes, m_posted, signalled);
  m_unreaped = m_unreaped || signalled;
}

}  // namespace gpubench::transports::rdma

#include "transports/rdma/session_util.hpp"

#include <stdexcept>

namespace gpubench::transports::rdma {

spin_deadline::spin_deadline(std::chrono::milliseconds timeout)
    : m_end(std::chrono::steady_clock::now() + timeout) {}

bool spin_deadline::expired() {
  if ((++m_calls & 255u) != 0) return false;
  return std::chrono::steady_clock::now() > m_end;
}

bool spin_deadline::expired_now() const {
  return std::chrono::steady_clock::now() > m_end;
}

bool idle_expired(endpoint& ep, spin_deadline& deadline) {
  return ep.idle(event_slice) ? deadline.expired_now() : deadline.expired();
}

namespace {

ibv_wc wait_one(endpoint& ep, bool send_queue, const std::string& what,
                std::chrono::milliseconds timeout) {
  ibv_wc wc{};
  spin_deadline deadline(timeout);
  for (;;) {
    const int n = send_queue ? ep.poll_send({&wc, 1}) : ep.poll_recv({&wc, 1});
    if (n == 1) return wc;
    if (idle_expired(ep, deadline))
      throw std::runtime_error(what + ": no " + (send_queue ? "send" : "receive") +
                               " completion within " + std::to_string(timeout.count()) +
                               " ms (peer gone, or the queue pair stalled)");
  }
}

}  // namespace

ibv_wc wait_send(endpoint& ep, const std::string& what, std::chrono::milliseconds timeout) {
  return wait_one(ep, true, what, timeout);
}

ibv_wc wait_recv(endpoint& ep, const std::string& what, std::chrono::milliseconds timeout) {
  return wait_one(ep, false, what, timeout);
}

}  // namespace gpubench::transports::rdma

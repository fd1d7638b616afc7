#include "transports/rdma/session_util.hpp"

#include <sys/resource.h>

#include <stdexcept>

#include "core/errors.hpp"

namespace gpubench::transports::rdma {

double thread_cpu_seconds() {
  rusage u{};
  if (getrusage(RUSAGE_THREAD, &u) != 0) return 0;
  auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return s(u.ru_utime) + s(u.ru_stime);
}

spin_deadline::spin_deadline(double seconds)
    : m_end(std::chrono::steady_clock::now() +
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(seconds))) {}

bool spin_deadline::expired() {
  if ((++m_calls & 255u) != 0) return false;
  return std::chrono::steady_clock::now() > m_end;
}

namespace {

ibv_wc wait_one(endpoint& ep, bool send_queue, const std::string& what) {
  ibv_wc wc{};
  spin_deadline deadline(data_timeout_seconds);
  for (;;) {
    const int n = send_queue ? ep.poll_send({&wc, 1}) : ep.poll_recv({&wc, 1});
    if (n == 1) return wc;
    if (deadline.expired())
      throw std::runtime_error(what + ": no " + (send_queue ? "send" : "receive") +
                               " completion within " +
                               std::to_string(static_cast<int>(data_timeout_seconds)) +
                               " s (peer gone, or the queue pair stalled)");
  }
}

}  // namespace

ibv_wc wait_send(endpoint& ep, const std::string& what) {
  return wait_one(ep, true, what);
}
ibv_wc wait_recv(endpoint& ep, const std::string& what) {
  return wait_one(ep, false, what);
}

command expect_command(message_link& link, command_type type, std::chrono::milliseconds timeout,
                       const std::string& what) {
  const auto c = decode_command(link.receive(timeout));
  if (c.type == command_type::failed) {
    if (c.size == 1) throw core::skip_case(c.text);  // a requirement the peer lacks
    throw std::runtime_error("the RDMA peer failed: " + c.text);
  }
  if (c.type != type)
    throw std::runtime_error(what + ": the peer sent command " +
                             std::to_string(static_cast<int>(c.type)) + " out of order");
  return c;
}

}  // namespace gpubench::transports::rdma

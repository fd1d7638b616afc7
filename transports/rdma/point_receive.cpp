#include "transports/rdma/point_receive.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "transports/rdma/params.hpp"

namespace gpubench::transports::rdma {

namespace {

using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

std::string ms_text(milliseconds ms) {
  return std::to_string(ms.count()) + " ms";
}

}  // namespace

responder_watch::responder_watch(point_control& control, milliseconds silence_limit)
    : m_control(control), m_limit(silence_limit), m_last(clock::now()) {}

void responder_watch::progress() {
  m_idle = 0;
  m_last = clock::now();
}

bool responder_watch::after_idle(bool slept) {
  if (!slept && ++m_idle < idle_polls_before_check) return false;
  m_idle = 0;
  if (m_control.stop_requested()) return true;
  if (clock::now() - m_last > m_limit)
    throw std::runtime_error("the client sent nothing for " + ms_text(m_limit) +
                             " in the middle of a point");
  return false;
}

std::uint64_t receive_point(receive_queue& q, point_control& control, std::uint64_t per_sample,
                            milliseconds silence_limit, milliseconds cap) {
  const std::uint64_t before = q.received();
  responder_watch watch(control, silence_limit);
  for (;;) {
    if (q.service() > 0)
      watch.progress();
    else if (watch.after_idle(q.idle(event_slice, watch.fd())))
      break;
  }
  const auto sent = control.sent_messages();
  const milliseconds limit = std::min(cap, silence_limit);
  const auto end = clock::now() + limit;
  for (;;) {
    const std::uint64_t got = q.received() - before;
    if (sent && got > *sent)
      throw std::runtime_error("send bandwidth: " + std::to_string(got) +
                               " messages arrived in a point the client sent " +
                               std::to_string(*sent) + " in");
    // The queue is polled empty before a count is trusted: a completion that is there is
    // taken now, in its own point.
    if (q.service() > 0) continue;
    const std::uint64_t left = sent ? *sent - got : receives_outstanding(got, per_sample);
    if (left == 0) return got;
    control.check_quiet();
    const auto now = clock::now();
    if (now > end)
      throw std::runtime_error(
          "send bandwidth: " + std::to_string(left) + " of the messages the client " +
          (sent ? "sent (" + std::to_string(*sent) + ")" : std::string("sent in its last sample")) +
          " had not arrived " + ms_text(limit) + " after the stop (" + std::to_string(got) +
          " did)");
    q.idle(std::min(event_slice,
                    std::chrono::duration_cast<milliseconds>(end - now) + milliseconds(1)),
           control.fd());
  }
}

}  // namespace gpubench::transports::rdma

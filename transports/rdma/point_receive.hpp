// How the passive side of an RDMA case waits on its queues while it serves a point, and how
// send bandwidth's receiver ends one: on exactly the messages the client says it sent, with
// the control connection watched throughout. Written against a small interface to the queue
// pair, so the logic runs in tests without a device.
#pragma once

#include <chrono>
#include <cstdint>

#include "transports/transport.hpp"

namespace gpubench::transports::rdma {

// How long one sleep on the completion channel lasts at most (event mode): bounds how late a
// timeout or a stop is noticed, not how late a completion is.
inline constexpr std::chrono::milliseconds event_slice{100};
// Empty polls before an idle responder asks the control channel whether the point is over
// (a poll() system call): only an idle responder asks, so the check never delays a reply in
// the middle of a ping-pong.
inline constexpr std::uint32_t idle_polls_before_check = 1u << 12;
// After the stop every message the client counted was acknowledged, so its completion is at
// most a moment away: the drain waits this long (or the I/O timeout, if shorter).
inline constexpr std::chrono::milliseconds drain_cap{2000};

// What the waits need from the queue pair (the endpoint, or a test's script).
class receive_queue {
 public:
  virtual ~receive_queue() = default;
  // Polls the receive queue once, re-posting what it consumed; returns the completions seen.
  virtual int service() = 0;
  // Data messages received so far (sync marks not counted).
  virtual std::uint64_t received() const = 0;
  // After an empty poll (endpoint::idle): event mode sleeps up to `slice` on the completion
  // channel and `fd` and returns true; polling returns false at once.
  virtual bool idle(std::chrono::milliseconds slice, int fd) = 0;
};

// A responder's idle time during a point: when it looks at the control connection, and how
// long the client may say and send nothing.
class responder_watch {
 public:
  responder_watch(point_control& control, std::chrono::milliseconds silence_limit);
  int fd() const { return m_control.fd(); }
  // The queue pair moved: the client is there.
  void progress();
  // After an empty poll and the idle(..., fd()) that followed it (`slept`: what it returned):
  // looks at the control connection after every sleep, or every idle_polls_before_check empty
  // polls. True when the client ended the point; throws when the connection broke or the
  // client has been silent for the limit.
  bool after_idle(bool slept);

 private:
  point_control& m_control;
  std::chrono::milliseconds m_limit;
  std::chrono::steady_clock::time_point m_last;
  std::uint32_t m_idle = 0;
};

// Send bandwidth's receiving side for one point: keeps the receive queue full until the client
// ends the point, then drains until exactly the messages point_end says it sent have arrived,
// polling the queue empty before it trusts the count, at most `cap` (a completion that came
// with the stop is counted in its own point, never in the next). Anything the client sends
// after the stop ends the point at once (check_quiet). A client that gave no count (older
// versions) is drained to a whole number of samples of `per_sample`, as they were. Returns
// the data messages received in the point; throws naming the counts when they disagree.
std::uint64_t receive_point(receive_queue& q, point_control& control, std::uint64_t per_sample,
                            std::chrono::milliseconds silence_limit, std::chrono::milliseconds cap);

}  // namespace gpubench::transports::rdma

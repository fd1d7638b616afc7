// How the passive side of an RDMA case ends a send-bandwidth point (point_receive.hpp), on a
// scripted receive queue: a completion that arrives with the client's stop is counted in its
// own point when the client says how many it sent, and, under the whole-sample rule of
// clients that do not say, is counted in the next point, which then waits for messages that
// never come; a client that leaves during the drain ends it at once.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "transports/rdma/point_receive.hpp"

namespace gpubench::transports::rdma {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

// Completions become pollable when delivered, or a number of polls later (a completion late
// in arriving). idle() runs the test's hook: that is where "the event came, and with it the
// client's stop" is staged.
class scripted_queue final : public receive_queue {
 public:
  explicit scripted_queue(bool event_mode) : m_event_mode(event_mode) {}
  void deliver(std::uint64_t n) { m_ready += n; }
  void deliver_after_polls(std::uint64_t n, int polls) {
    m_late = n;
    m_late_in = polls;
  }
  std::function<void()> on_idle;

  int service() override {
    if (m_late > 0 && --m_late_in <= 0) {
      m_ready += m_late;
      m_late = 0;
    }
    const std::uint64_t n = std::min<std::uint64_t>(m_ready, 32);
    m_ready -= n;
    m_received += n;
    return static_cast<int>(n);
  }
  std::uint64_t received() const override { return m_received; }
  bool idle(std::chrono::milliseconds slice, int) override {
    if (on_idle) on_idle();
    if (m_event_mode) std::this_thread::sleep_for(std::min(slice, 1ms));
    return m_event_mode;
  }

 private:
  bool m_event_mode;
  std::uint64_t m_ready = 0, m_received = 0, m_late = 0;
  int m_late_in = 0;
};

class fake_control final : public point_control {
 public:
  int fd() const override { return -1; }
  bool stop_requested() override {
    ++looks;
    return stopped;
  }
  bool wait(std::chrono::milliseconds) override { return stopped; }
  std::optional<std::uint64_t> sent_messages() const override { return sent; }
  void check_quiet() override {
    if (left) throw std::runtime_error("client 198.18.0.2 left after ending the point: EOF");
  }

  bool stopped = false;
  bool left = false;
  std::optional<std::uint64_t> sent;
  int looks = 0;
};

// One probe of `per_sample` messages: `early` arrive before the stop, the last `late` come
// with it (their event and point_end together) and are pollable only two polls after.
std::uint64_t probe(scripted_queue& q, std::uint64_t per_sample, std::uint64_t late,
                    bool client_counts, std::chrono::milliseconds cap) {
  fake_control control;
  if (client_counts) control.sent = per_sample;
  q.deliver(per_sample - late);
  bool staged = false;
  q.on_idle = [&] {
    if (staged) return;
    staged = true;
    control.stopped = true;
    if (late > 0) q.deliver_after_polls(late, 2);
  };
  return receive_point(q, control, per_sample, 5000ms, cap);
}

TEST(RdmaPointReceive, CompletionArrivingWithTheStopIsCountedInItsOwnPoint) {
  scripted_queue q(true);
  // perftest-sized calibration at 1 MiB: a first probe of one message, then five.
  EXPECT_EQ(probe(q, 1, 1, true, drain_cap), 1u);
  EXPECT_EQ(probe(q, 5, 1, true, drain_cap), 5u);
  EXPECT_EQ(probe(q, 5, 0, true, drain_cap), 5u);
  EXPECT_EQ(q.received(), 11u);
}

TEST(RdmaPointReceive, WithoutTheClientsCountTheLateCompletionStallsTheNextPoint) {
  // The whole-sample rule (what the server did before point_end carried a count, and still
  // does for a client that gives none): a one-message probe is "whole" with none received,
  // so the late completion is counted in the next probe, which then waits for four messages
  // that never come until its cap.
  scripted_queue q(true);
  EXPECT_EQ(probe(q, 1, 1, false, 200ms), 0u);
  const auto t0 = clock_type::now();
  try {
    probe(q, 5, 0, false, 200ms);
    ADD_FAILURE() << "the next point ended although it held a stray completion";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("4 of the messages"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(6 did)"), std::string::npos) << e.what();
  }
  EXPECT_GE(clock_type::now() - t0, 200ms);
}

TEST(RdmaPointReceive, PollingModeCountsExactlyToo) {
  scripted_queue q(false);
  EXPECT_EQ(probe(q, 1, 1, true, drain_cap), 1u);
  EXPECT_EQ(probe(q, 7, 3, true, drain_cap), 7u);
}

TEST(RdmaPointReceive, ClientLeavingDuringTheDrainEndsItAtOnce) {
  scripted_queue q(true);
  fake_control control;
  control.sent = 3;
  q.deliver(2);  // the third never comes
  const auto t0 = clock_type::now();
  bool left_seen = false;
  q.on_idle = [&] {
    control.stopped = true;
    if (q.received() == 2 && !left_seen) {
      left_seen = true;
      control.left = true;  // EOF after point_end: the client was killed
    }
  };
  try {
    receive_point(q, control, 3, 60000ms, 60000ms);
    ADD_FAILURE() << "the drain outlived its client";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("left after ending the point"), std::string::npos)
        << e.what();
  }
  EXPECT_LT(clock_type::now() - t0, 1s);
}

TEST(RdmaPointReceive, MoreMessagesThanTheClientSentIsAnError) {
  scripted_queue q(false);
  fake_control control;
  control.sent = 2;
  q.deliver(3);
  q.on_idle = [&] { control.stopped = true; };
  try {
    receive_point(q, control, 2, 5000ms, drain_cap);
    ADD_FAILURE() << "an extra message went uncounted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("3 messages arrived in a point the client sent 2 in"),
              std::string::npos)
        << e.what();
  }
}

TEST(RdmaPointReceive, PollingResponderLooksAtTheControlConnectionOnlyWhenIdleLong) {
  fake_control control;
  responder_watch w(control, 5000ms);
  for (std::uint32_t i = 1; i < idle_polls_before_check; ++i)
    ASSERT_FALSE(w.after_idle(false));
  EXPECT_EQ(control.looks, 0);
  EXPECT_FALSE(w.after_idle(false));
  EXPECT_EQ(control.looks, 1);
  // After a sleep (event mode) it looks every time.
  control.stopped = true;
  EXPECT_TRUE(w.after_idle(true));
  EXPECT_EQ(control.looks, 2);
}

TEST(RdmaPointReceive, SilentClientFailsThePointAfterTheLimit) {
  fake_control control;
  responder_watch w(control, 20ms);
  EXPECT_FALSE(w.after_idle(true));
  std::this_thread::sleep_for(40ms);
  try {
    w.after_idle(true);
    ADD_FAILURE() << "a silent client held the point";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("sent nothing for 20 ms"), std::string::npos) << e.what();
  }
  w.progress();
  EXPECT_FALSE(w.after_idle(true));
}

}  // namespace
}  // namespace gpubench::transports::rdma

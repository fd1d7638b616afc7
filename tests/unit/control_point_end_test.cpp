// The end of a point over real loopback sockets: point_end carries the client's message count
// to the server's point_control, and a client killed after ending a point (its server still
// draining) frees the server for the next client at once, as anything on the control
// connection after the stop ends the point.
#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "transports/control/client.hpp"
#include "transports/control/server.hpp"

namespace gpubench::transports {
namespace {

using namespace std::chrono_literals;
using namespace control;

// A transport that moves nothing: the client counts `iterations` messages per sample, the
// server reports what point_end said; with params {"drain": true} the server then waits up
// to 20 s for messages that never come, watching the control connection as RDMA's drain does.
class counting_active final : public active_endpoint {
 public:
  nlohmann::json describe() const override { return nlohmann::json::object(); }
  void prepare(const point_spec& spec) override {
    m_spec = spec;
    m_messages = 0;
  }
  void run_sample() override { m_messages += m_spec.iterations; }
  point_totals finish() override {
    point_totals t;
    t.messages = m_messages;
    return t;
  }
  std::optional<std::uint64_t> sent_messages() const override { return m_messages; }

 private:
  point_spec m_spec;
  std::uint64_t m_messages = 0;
};

class counting_passive final : public passive_endpoint {
 public:
  counting_passive(bool drain, std::atomic<bool>& draining)
      : m_drain(drain), m_draining(draining) {}
  nlohmann::json describe() const override { return nlohmann::json::object(); }
  void prepare(const point_spec&) override {}
  point_totals serve(point_control& control) override {
    while (!control.wait(10ms)) {
    }
    point_totals t;
    t.messages = control.sent_messages().value_or(0);
    if (!m_drain) return t;
    m_draining = true;
    const auto end = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < end) {
      control.check_quiet();
      std::this_thread::sleep_for(10ms);
    }
    return t;
  }

 private:
  bool m_drain;
  std::atomic<bool>& m_draining;
};

// The test transport: its passive side raises `draining` when it starts its drain.
transport_entry counting_entry(std::atomic<bool>& draining) {
  transport_entry e;
  e.name = "counting";
  e.make_active = [](const endpoint_setup&) -> std::unique_ptr<active_endpoint> {
    return std::make_unique<counting_active>();
  };
  e.make_passive = [&draining](const endpoint_setup& s) -> std::unique_ptr<passive_endpoint> {
    return std::make_unique<counting_passive>(s.params.value("drain", false), draining);
  };
  return e;
}

class counting_server {
 public:
  counting_server() {
    m_table.add(counting_entry(draining));
    server_options o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.io_timeout = 30s;  // far above what the test allows: only check_quiet can free it
    o.idle_timeout = 30s;
    m_server = std::make_unique<control_server>(o, m_table);
    m_thread = std::thread([this] { m_server->serve([this] { return m_stop.load(); }); });
  }
  ~counting_server() {
    m_stop = true;
    m_thread.join();
  }
  net::endpoint_address address() const { return {"127.0.0.1", m_server->port()}; }
  const transport_entry& entry() const { return *m_table.find("counting"); }
  std::atomic<bool> draining{false};

 private:
  transport_table m_table;
  std::unique_ptr<control_server> m_server;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

client_options patient_client() {
  client_options o;
  o.io_timeout = 30s;
  o.connect_timeout = 2s;
  return o;
}

point_spec spec_of(std::uint64_t iterations) {
  point_spec s;
  s.kind = pattern::bandwidth;
  s.bytes = 1 << 20;
  s.iterations = iterations;
  return s;
}

TEST(ControlPointEnd, TheServerLearnsHowManyMessagesTheClientSent) {
  counting_server server;
  client_session session(server.address(), patient_client());
  session.open_case(server.entry(), nlohmann::json::object());
  for (const std::uint64_t iterations : {1u, 7u}) {
    session.begin_point(spec_of(iterations));
    for (int i = 0; i < 3; ++i)
      session.endpoint().run_sample();
    const auto cost = session.end_point();
    EXPECT_EQ(cost.client.messages, 3 * iterations);
    EXPECT_EQ(cost.server.messages, 3 * iterations);
  }
}

TEST(ControlPointEnd, ClientKilledWhileTheServerDrainsFreesItAtOnce) {
  // Forked before any thread exists (the server's comes after): a child forked from a threaded
  // process can find a lock another thread held (the allocator's, a sanitizer's) taken forever.
  // The child learns the server's port through a pipe.
  int port_pipe[2];
  ASSERT_EQ(::pipe(port_pipe), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the client: ends a point, then waits for totals that take 20 s
    ::close(port_pipe[1]);
    std::uint16_t port = 0;
    pollfd readable{port_pipe[0], POLLIN, 0};
    if (::poll(&readable, 1, 10000) != 1 || ::read(port_pipe[0], &port, sizeof port) != sizeof port)
      ::_exit(1);
    try {
      std::atomic<bool> unused{false};
      const auto entry = counting_entry(unused);
      client_session session({"127.0.0.1", port}, patient_client());
      session.open_case(entry, {{"drain", true}});
      session.begin_point(spec_of(5));
      session.endpoint().run_sample();
      session.end_point();
    } catch (...) {
    }
    ::_exit(0);
  }
  ::close(port_pipe[0]);
  counting_server server;
  const std::uint16_t port = server.address().port;
  ASSERT_EQ(::write(port_pipe[1], &port, sizeof port), static_cast<ssize_t>(sizeof port));
  ::close(port_pipe[1]);
  const auto wait_end = std::chrono::steady_clock::now() + 10s;
  while (!server.draining && std::chrono::steady_clock::now() < wait_end)
    std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(server.draining) << "the server never began its drain";
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    try {
      client_session next(server.address(), patient_client());
      break;
    } catch (const peer_error& e) {  // busy: the drain still holds the server
      ASSERT_LT(std::chrono::steady_clock::now() - t0, 10s) << e.what();
      std::this_thread::sleep_for(20ms);
    }
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

}  // namespace
}  // namespace gpubench::transports

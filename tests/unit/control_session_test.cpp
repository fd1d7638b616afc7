// The control channel over real loopback sockets: a TCP case end to end, and a server that
// refuses wrong tokens, other versions, garbage, oversized frames, silent and second clients,
// and still serves the next client.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/version.hpp"
#include "transports/control/client.hpp"
#include "transports/control/server.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::transports {
namespace {

using namespace std::chrono_literals;
using namespace control;

class test_server {
 public:
  explicit test_server(std::string token = "", std::chrono::milliseconds io = 2000ms,
                       std::chrono::milliseconds handshake = 1000ms) {
    m_table.add(tcp::tcp_transport());
    server_options o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.token = std::move(token);
    o.io_timeout = io;
    o.idle_timeout = 2000ms;
    o.limits.handshake_timeout = handshake;
    o.log = [this](const std::string& line) {
      std::lock_guard lock(m_mutex);
      m_log += line + "\n";
    };
    m_server = std::make_unique<control_server>(o, m_table);
    m_thread = std::thread([this] { m_server->serve([this] { return m_stop.load(); }); });
  }
  ~test_server() {
    m_stop = true;
    m_thread.join();
  }
  net::endpoint_address address() const { return {"127.0.0.1", m_server->port()}; }
  std::string log() {
    std::lock_guard lock(m_mutex);
    return m_log;
  }

 private:
  transport_table m_table;
  std::unique_ptr<control_server> m_server;
  std::atomic<bool> m_stop{false};
  std::mutex m_mutex;
  std::string m_log;
  std::thread m_thread;
};

client_options options(std::string token = "") {
  client_options o;
  o.token = std::move(token);
  o.io_timeout = 2000ms;
  o.connect_timeout = 2000ms;
  return o;
}

// Sends raw bytes as a client would and returns the server's first reply frame.
frame raw_exchange(const net::endpoint_address& at, std::span<const std::byte> bytes) {
  control_channel ch(net::connect_tcp(at, 2000ms), "server");
  net::send_all(ch.fd(), bytes, 2000ms, "sending raw bytes");
  return ch.receive(5000ms);
}

std::string error_text(const frame& f) {
  return nlohmann::json::parse(as_string(f.payload)).value("message", "");
}

void expect_serves_next_client(test_server& server) {
  client_session next(server.address(), options());
  EXPECT_EQ(next.server_version(), core::tool_version);
}

TEST(ControlSession, TcpCaseCountsEveryStreamInFixedWindowsAndDrainsThePoint) {
  test_server server;
  client_session s(server.address(), options());
  const auto tcp_entry = tcp::tcp_transport();
  s.open_case(tcp_entry, {{"streams", 2}});
  EXPECT_EQ(s.server_context().value("transport", ""), "tcp");
  ASSERT_TRUE(s.endpoint().counted_samples());

  for (const auto dir : {direction::to_peer, direction::from_peer, direction::bidir}) {
    point_spec spec{pattern::bandwidth, dir, 64u << 10, 1, 0.02};
    s.begin_point(spec);
    std::uint64_t counted = 0;
    // Per stream over the point: on a loaded machine one stream's thread can miss a whole
    // 20 ms window, but not every window of the point.
    std::array<std::uint64_t, 2> per_stream{};
    for (int i = 0; i < 3; ++i) {
      s.endpoint().run_sample();
      const auto c = s.endpoint().last_sample();
      ASSERT_EQ(c.stream_bytes.size(), 2u) << to_string(dir);
      for (std::size_t k = 0; k < c.stream_bytes.size(); ++k) {
        per_stream[k] += c.stream_bytes[k];
        counted += c.stream_bytes[k];
      }
      EXPECT_GT(c.seconds, 0.0);
      EXPECT_GT(c.bytes_per_second, 0.0);
    }
    for (const auto b : per_stream)
      EXPECT_GT(b, 0u) << to_string(dir) << ": every stream's bytes are counted";
    const auto cost = s.end_point();
    // Drained at the end: what one side sent, the other received, so both count the same
    // bytes, and the windows counted no more than arrived.
    EXPECT_EQ(cost.server.bytes, cost.client.bytes) << to_string(dir);
    EXPECT_GE(cost.client.bytes, counted) << to_string(dir);
    EXPECT_GE(cost.client.cpu.total(), 0.0);
    EXPECT_GT(cost.client.cpu.total() + cost.server.cpu.total(), 0.0);
  }
  // A point that ends before its first sample still drains and ends on both sides.
  s.begin_point({pattern::bandwidth, direction::from_peer, 4096, 1, 0.02});
  const auto idle = s.end_point();
  EXPECT_EQ(idle.server.bytes, idle.client.bytes);
  // Samples of a fixed message count are not what TCP measures any more.
  EXPECT_THROW(s.begin_point({pattern::bandwidth, direction::to_peer, 4096, 4}),
               std::runtime_error);
}

TEST(ControlSession, TcpLatencyAfterBandwidth) {
  test_server server;
  client_session s(server.address(), options());
  const auto tcp_entry = tcp::tcp_transport();
  s.open_case(tcp_entry, {{"streams", 1}});
  s.begin_point({pattern::bandwidth, direction::bidir, 4096, 1, 0.02});
  s.endpoint().run_sample();
  s.end_point();
  s.begin_point({pattern::latency, direction::to_peer, 100, 1});
  for (int i = 0; i < 50; ++i)
    s.endpoint().run_sample();
  const auto cost = s.end_point();
  EXPECT_EQ(cost.client.bytes, 2u * 100 * 50);
  EXPECT_EQ(cost.server.bytes, 2u * 100 * 50);
  EXPECT_EQ(cost.server.messages, 100u);
}

TEST(ControlSession, LatencyNeedsOneStream) {
  test_server server;
  client_session s(server.address(), options());
  s.open_case(tcp::tcp_transport(), {{"streams", 2}});
  EXPECT_THROW(s.begin_point({pattern::latency, direction::to_peer, 8, 1}), std::runtime_error);
}

TEST(ControlServer, WrongOrMissingTokenIsRefusedOnBothSides) {
  test_server server("right");
  try {
    client_session s(server.address(), options("wrong"));
    ADD_FAILURE() << "a wrong token was accepted";
  } catch (const authentication_error& e) {
    EXPECT_NE(std::string(e.what()).find("token does not match"), std::string::npos) << e.what();
  }
  try {
    client_session s(server.address(), options());
    ADD_FAILURE() << "a missing token was accepted";
  } catch (const peer_error& e) {
    EXPECT_NE(std::string(e.what()).find("--token-file"), std::string::npos) << e.what();
  }
  client_session ok(server.address(), options("right"));
  std::this_thread::sleep_for(100ms);
  EXPECT_NE(server.log().find("authentication failed"), std::string::npos) << server.log();
}

TEST(ControlServer, OtherProtocolOrToolVersionIsToldInWords) {
  test_server server;
  const auto hello = nlohmann::json{{"protocol", 2}, {"tool", "9.9"}, {"nonce", "x"}}.dump();
  frame reply = raw_exchange(server.address(),
                             encode_frame(message::hello, as_bytes(hello), protocol_version + 1));
  EXPECT_EQ(reply.type, message::error);
  EXPECT_NE(error_text(reply).find("protocol version mismatch"), std::string::npos)
      << error_text(reply);

  const auto old_tool =
      nlohmann::json{{"protocol", protocol_version}, {"tool", "0.0.1"}, {"nonce", "x"}}.dump();
  reply = raw_exchange(server.address(), encode_frame(message::hello, as_bytes(old_tool)));
  EXPECT_EQ(reply.type, message::error);
  EXPECT_NE(error_text(reply).find("gpubench 0.0.1"), std::string::npos) << error_text(reply);
  expect_serves_next_client(server);
  EXPECT_NE(server.log().find("version mismatch"), std::string::npos) << server.log();
}

TEST(ControlServer, SurvivesGarbageOversizedAndSilentClients) {
  test_server server("", 500ms);
  const std::string http = "GET / HTTP/1.0\r\n\r\n";
  frame reply = raw_exchange(server.address(), as_bytes(http));
  EXPECT_EQ(reply.type, message::error);
  EXPECT_NE(error_text(reply).find("garbage"), std::string::npos) << error_text(reply);

  auto huge = encode_header(
      {frame_magic, protocol_version, static_cast<std::uint16_t>(message::hello), 1u << 30});
  reply = raw_exchange(server.address(), huge);
  EXPECT_NE(error_text(reply).find("over the limit"), std::string::npos) << error_text(reply);

  auto unknown = encode_header({frame_magic, protocol_version, 4242, 0});
  reply = raw_exchange(server.address(), unknown);
  EXPECT_NE(error_text(reply).find("unknown message type"), std::string::npos);

  {
    // Connects and says nothing: dropped after the server's timeout, not forever.
    net::unique_fd silent = net::connect_tcp(server.address(), 1000ms);
    EXPECT_TRUE(net::wait_readable(silent.get(), 3000ms)) << "server kept a silent client";
  }
  expect_serves_next_client(server);
}

TEST(ControlServer, SecondClientIsToldBusy) {
  test_server server;
  client_session first(server.address(), options());
  try {
    client_session second(server.address(), options());
    ADD_FAILURE() << "two sessions at once";
  } catch (const peer_error& e) {
    EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
  }
}

TEST(ControlServer, UnknownTransportIsRefusedWithItsName) {
  test_server server;
  client_session s(server.address(), options());
  transport_entry fake{"carrier-pigeon", nullptr, nullptr, ""};
  fake.make_active = [](const endpoint_setup& setup) -> std::unique_ptr<active_endpoint> {
    setup.oob->receive_blob(setup.io_timeout);
    return nullptr;
  };
  try {
    s.open_case(fake, nlohmann::json::object());
    ADD_FAILURE() << "an unknown transport was accepted";
  } catch (const peer_error& e) {
    EXPECT_NE(std::string(e.what()).find("carrier-pigeon"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpubench::transports

namespace gpubench::transports {
namespace {

using namespace std::chrono_literals;
using namespace control;
using steady = std::chrono::steady_clock;

double seconds_since(steady::time_point t0) {
  return std::chrono::duration<double>(steady::now() - t0).count();
}

// Waits until the server closes `fd` (end of stream or reset) or `limit` passes, reading and
// discarding what it sent; true when it closed.
bool closed_within(int fd, std::chrono::milliseconds limit) {
  const auto until = steady::now() + limit;
  std::array<char, 4096> sink{};
  while (steady::now() < until) {
    if (!net::wait_readable(fd, 50ms)) continue;
    if (::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT) <= 0) return true;
  }
  return false;
}

// Declares a hello of 8000 bytes and sends one byte of it every 300 ms, for at most 3 s; the
// seconds until the server closed the connection, or a negative number if it never did.
// `meanwhile` runs after the second byte.
double trickle_hello(const net::endpoint_address& at, const std::function<void()>& meanwhile) {
  net::unique_fd slow = net::connect_tcp(at, 1000ms);
  const auto header = encode_header(
      {frame_magic, protocol_version, static_cast<std::uint16_t>(message::hello), 8000});
  net::send_all(slow.get(), header, 1000ms, "sending a header");
  const auto t0 = steady::now();
  for (int i = 0; i < 10; ++i) {
    const std::byte one{'x'};
    if (::send(slow.get(), &one, 1, MSG_NOSIGNAL) != 1) return seconds_since(t0);
    if (i == 1 && meanwhile) meanwhile();
    if (closed_within(slow.get(), 300ms)) return seconds_since(t0);
  }
  return -1.0;
}

// The attack of issue 18: a hello declared large, its bytes trickled one every 300 ms. The
// deadline covers the whole handshake, so the trickle cannot hold the server.
TEST(ControlServerHostile, TrickledHelloIsDroppedByTheDeadline) {
  test_server server("", 2000ms, 1000ms);
  const double dropped_after = trickle_hello(server.address(), {});
  // Dropped at all: a deadline per byte would let the 300 ms trickle go on past its 3 s (-1).
  EXPECT_GE(dropped_after, 0.5) << "a trickled hello held on, or was dropped before its deadline";
  EXPECT_NE(server.log().find("no complete handshake within 1.0 s"), std::string::npos)
      << server.log();
  expect_serves_next_client(server);
}

TEST(ControlServerHostile, RealClientIsServedWhileAHelloTricklesIn) {
  test_server server("", 2000ms, 1000ms);
  const double dropped_after =
      trickle_hello(server.address(), [&server] { expect_serves_next_client(server); });
  EXPECT_GE(dropped_after, 0.0) << "a trickled hello held on";
}

TEST(ControlServerHostile, FiftySilentConnectionsDoNotStarveARealClient) {
  test_server server("", 2000ms, 3000ms);
  std::vector<net::unique_fd> silent;
  for (int i = 0; i < 50; ++i)
    silent.push_back(net::connect_tcp(server.address(), 2000ms));
  // The client's 2 s I/O timeout is shorter than the silent ones' 3 s handshake deadline: a
  // client served only once they are dropped fails here.
  expect_serves_next_client(server);
  EXPECT_NE(server.log().find("the oldest goes first"), std::string::npos) << server.log();
}

// Told "busy", not left to its own I/O timeout (whose error names no busy server).
TEST(ControlServerHostile, ClientArrivingDuringASessionIsToldBusy) {
  test_server server;
  client_session first(server.address(), options());
  try {
    client_session second(server.address(), options());
    ADD_FAILURE() << "two sessions at once";
  } catch (const peer_error& e) {
    EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
  }
}

TEST(ControlClientAuth, ClientWithTokenRefusesAServerThatAsksForNone) {
  test_server server("");
  try {
    client_session s(server.address(), options("secret"));
    ADD_FAILURE() << "a server without a token was accepted by a client with one";
  } catch (const authentication_error& e) {
    EXPECT_NE(std::string(e.what()).find("does not ask for a token"), std::string::npos)
        << e.what();
  }
}

TEST(ControlClientAuth, ClientRefusesAServerWithAnotherToken) {
  test_server server("other");
  EXPECT_THROW(client_session(server.address(), options("secret")), authentication_error);
}

// An impostor that asks for a token but cannot prove it knows it (it welcomes anyone).
TEST(ControlClientAuth, ClientRefusesAnImpostorThatCannotProveTheToken) {
  net::unique_fd listener = net::listen_tcp("127.0.0.1", 0);
  const net::endpoint_address at{"127.0.0.1", net::local_port(listener.get())};
  std::thread impostor([&listener] {
    net::unique_fd fd = net::accept_tcp(listener.get(), 3000ms);
    if (!fd) return;
    control_channel ch(std::move(fd), "client");
    try {
      ch.expect_json(message::hello, 2000ms, "impostor");
      ch.send_json(message::challenge, {{"protocol", protocol_version},
                                        {"tool", core::tool_version},
                                        {"auth", true},
                                        {"nonce", "00"}});
      ch.expect_json(message::auth, 2000ms, "impostor");
      ch.send_json(message::welcome, {{"mac", std::string(64, '0')}});
      ch.receive(2000ms);
    } catch (const std::exception&) {
    }
  });
  try {
    client_session s(at, options("secret"));
    ADD_FAILURE() << "an impostor was accepted";
  } catch (const authentication_error& e) {
    EXPECT_NE(std::string(e.what()).find("could not prove"), std::string::npos) << e.what();
  }
  impostor.join();
}

TEST(ControlServerHostile, ToolTextCannotForgeALogLine) {
  test_server server;
  const auto hello = nlohmann::json{
      {"protocol", protocol_version},
      {"tool", "1.0\nFORGED gpubench serve: session from 10.0.0.1"},
      {"nonce", "x"}}.dump();
  frame reply = raw_exchange(server.address(), encode_frame(message::hello, as_bytes(hello)));
  EXPECT_EQ(reply.type, message::error);
  EXPECT_EQ(error_text(reply).find('\n'), std::string::npos) << error_text(reply);
  std::this_thread::sleep_for(100ms);
  const std::string log = server.log();
  EXPECT_NE(log.find("1.0\\x0aFORGED"), std::string::npos) << log;
  EXPECT_EQ(log.find("\nFORGED"), std::string::npos) << log;
}

}  // namespace
}  // namespace gpubench::transports

// Cluster mode's launch secret: what rank 0 draws and every rank checks, and the pair ends
// that use it as the control channel's token (loopback, 127.0.0.1): a pair server refuses a
// client without the secret, and a pair client refuses a server that cannot prove it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/register_all.hpp"
#include "cluster/launch_secret.hpp"
#include "core/registry.hpp"
#include "core/run_context.hpp"
#include "transports/control/client.hpp"
#include "transports/control/server.hpp"
#include "transports/tcp/tcp_transport.hpp"

#if GPUBENCH_TEST_MPI
#include "cluster/pair_roles.hpp"
#endif

namespace gpubench::cluster {
namespace {

using namespace std::chrono_literals;
namespace control = transports::control;

std::string thrown_by(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(LaunchSecret, DrawIsSixtyFourHexDigitsAndFreshEachTime) {
  const std::string a = draw_launch_secret();
  const std::string b = draw_launch_secret();
  EXPECT_EQ(a.size(), launch_secret_chars);
  EXPECT_NO_THROW(check_launch_secret(a));
  EXPECT_NE(a, b);  // 256 random bits: equal only with a broken generator
}

TEST(LaunchSecret, CheckRefusesWhatRankZeroNeverDraws) {
  const std::string good = draw_launch_secret();
  EXPECT_THROW(check_launch_secret(""), std::runtime_error);
  EXPECT_THROW(check_launch_secret(good.substr(1)), std::runtime_error);
  EXPECT_THROW(check_launch_secret(good + "0"), std::runtime_error);
  std::string upper = good;
  upper[0] = 'A';
  EXPECT_THROW(check_launch_secret(upper), std::runtime_error);
  std::string nul = good;
  nul[10] = '\0';
  EXPECT_THROW(check_launch_secret(nul), std::runtime_error);
  // An unfilled broadcast buffer (zeros) on the receiving side.
  EXPECT_THROW(check_launch_secret(std::string(launch_secret_chars, '0')), std::runtime_error);
  // The message never repeats the secret.
  std::string bad = good;
  bad[5] = 'z';
  const std::string why = thrown_by([&] { check_launch_secret(bad); });
  EXPECT_NE(why, "");
  EXPECT_EQ(why.find(bad.substr(6)), std::string::npos) << why;
}

#if GPUBENCH_TEST_MPI

transports::transport_table tcp_table() {
  transports::transport_table table;
  table.add(transports::tcp::tcp_transport());
  return table;
}

// A control server as someone other than the launch would run it: no token, or another one.
class stranger_server {
 public:
  explicit stranger_server(std::string token) {
    m_table.add(transports::tcp::tcp_transport());
    control::server_options o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.token = std::move(token);
    o.io_timeout = 2000ms;
    o.idle_timeout = 2000ms;
    m_server = std::make_unique<control::control_server>(o, m_table);
    m_thread = std::thread([this] { m_server->serve([this] { return m_stop.load(); }); });
  }
  ~stranger_server() {
    m_stop = true;
    m_thread.join();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(m_server->port()); }

 private:
  transports::transport_table m_table;
  std::unique_ptr<control::control_server> m_server;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

control::client_options with_token(std::string token) {
  control::client_options o;
  o.token = std::move(token);
  o.connect_timeout = 2000ms;
  o.io_timeout = 2000ms;
  return o;
}

TEST(PairServer, RequiresAndProvesTheLaunchSecret) {
  const std::string secret = draw_launch_secret();
  pair_server server(tcp_table(), 3000ms, secret);
  const transports::net::endpoint_address at{"127.0.0.1", server.port()};

  // No token: refused, the server asks for one.
  const std::string none = thrown_by([&] { control::client_session s(at, with_token("")); });
  EXPECT_NE(none.find("requires authentication"), std::string::npos) << none;
  // Another token (another launch, a guess): refused.
  const std::string wrong =
      thrown_by([&] { control::client_session s(at, with_token(draw_launch_secret())); });
  EXPECT_NE(wrong.find("token does not match"), std::string::npos) << wrong;
  // The launch's own secret: the handshake completes both ways (the server proved it too).
  EXPECT_EQ(thrown_by([&] { control::client_session s(at, with_token(secret)); }), "");
}

TEST(PairServer, WithoutTheLaunchSecretIsAMistake) {
  EXPECT_THROW(pair_server(tcp_table(), 1000ms, ""), std::logic_error);
}

// The pair client's cases against `server`: each failed, and why.
std::vector<std::string> failures_against(const std::string& server) {
  core::registry r;
  benchmarks::register_all(r);
  const auto defs = r.select("network", "^net\\.tcp\\.latency$");
  EXPECT_EQ(defs.size(), 1u);
  core::run_context ctx;
  const auto cases = measure_against(server, defs, ctx, {8}, false, 5000ms, draw_launch_secret());
  std::vector<std::string> reasons;
  for (const auto& c : cases) {
    EXPECT_EQ(c.at("status"), "failed") << c.dump();
    reasons.push_back(c.at("reason").get<std::string>());
  }
  return reasons;
}

TEST(PairClient, RefusesAServerThatAsksForNoToken) {
  stranger_server impostor("");
  const auto reasons = failures_against(impostor.address());
  ASSERT_FALSE(reasons.empty());
  for (const auto& why : reasons)
    EXPECT_NE(why.find("does not ask for a token"), std::string::npos) << why;
}

TEST(PairClient, RefusesAServerWithAnotherToken) {
  stranger_server other(draw_launch_secret());
  const auto reasons = failures_against(other.address());
  ASSERT_FALSE(reasons.empty());
  for (const auto& why : reasons)
    EXPECT_NE(why.find("token does not match"), std::string::npos) << why;
}

TEST(PairClient, WithoutTheLaunchSecretIsAMistake) {
  core::run_context ctx;
  EXPECT_THROW(measure_against("127.0.0.1:1", {}, ctx, {8}, false, 1000ms, ""), std::logic_error);
}

#else

TEST(PairServer, RequiresAndProvesTheLaunchSecret) {
  GTEST_SKIP() << "built without MPI: cluster mode's pair ends are not built";
}

#endif

}  // namespace
}  // namespace gpubench::cluster

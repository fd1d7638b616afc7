// The rdma_cm connection path's logic that needs no device: the option, the setting a server
// receives, the port message, event and reject texts, and the read depths of the connection.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "benchmarks/network/rdma_common.hpp"
#include "core/errors.hpp"
#include "core/run_context.hpp"
#include "transports/rdma/cm_protocol.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/rdma_settings.hpp"
#include "transports/rdma/wire.hpp"

namespace rdma = gpubench::transports::rdma;
using rdma::cm_event;

namespace {

rdma::rdma_settings cm_settings() {
  rdma::rdma_settings s;
  s.test = rdma::test_kind::latency;
  s.op = rdma::rdma_op::read;
  s.max_bytes = 4096;
  return s;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(RdmaCm, OptionIsOnOrOff) {
  EXPECT_TRUE(rdma::parse_rdma_cm("on"));
  EXPECT_FALSE(rdma::parse_rdma_cm("off"));
  EXPECT_THROW(rdma::parse_rdma_cm("bogus"), gpubench::core::usage_error);
  EXPECT_THROW(rdma::parse_rdma_cm("ON"), gpubench::core::usage_error);

  gpubench::core::run_context ctx;
  EXPECT_FALSE(rdma::parse_rdma_options(ctx).rdma_cm);
  ctx.options = {{"rdma-cm", "on"}};
  EXPECT_TRUE(rdma::parse_rdma_options(ctx).rdma_cm);
  ctx.options = {{"rdma-cm", "yes"}};
  try {
    rdma::parse_rdma_options(ctx);
    FAIL() << "--rdma-cm yes was accepted";
  } catch (const gpubench::core::usage_error& e) {
    EXPECT_TRUE(has(e.what(), "--rdma-cm")) << e.what();
  }
  // rdma_cm picks the GID from the address: an explicit index would be silently ignored.
  ctx.options = {{"rdma-cm", "on"}, {"gid-index", "3"}};
  EXPECT_THROW(rdma::parse_rdma_options(ctx), gpubench::core::usage_error);
  ctx.options = {{"rdma-cm", "on"}, {"peer-gid-index", "3"}};
  EXPECT_THROW(rdma::parse_rdma_options(ctx), gpubench::core::usage_error);
  ctx.options = {{"rdma-cm", "off"}, {"gid-index", "3"}};
  EXPECT_EQ(rdma::parse_rdma_options(ctx).gid_index, 3);
}

TEST(RdmaCm, SettingTravelsToTheServer) {
  auto s = cm_settings();
  EXPECT_FALSE(rdma::to_params(s).contains("rdma_cm"));  // the default path's params unchanged
  EXPECT_FALSE(rdma::settings_from(rdma::to_params(s)).rdma_cm);
  s.rdma_cm = true;
  EXPECT_TRUE(rdma::settings_from(rdma::to_params(s)).rdma_cm);
}

TEST(RdmaCm, ServerRefusesAMistypedSetting) {
  for (const nlohmann::json& v : {nlohmann::json("on"), nlohmann::json(1), nlohmann::json(nullptr),
                                  nlohmann::json::array({true})}) {
    auto p = rdma::to_params(cm_settings());
    p["rdma_cm"] = v;
    try {
      rdma::settings_from(p);
      ADD_FAILURE() << "accepted rdma_cm = " << v.dump();
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(has(e.what(), "bad RDMA case parameters: rdma_cm")) << e.what();
    }
  }
}

TEST(RdmaCm, PortMessageRoundTrip) {
  for (std::uint16_t port : {std::uint16_t{1}, std::uint16_t{18515}, std::uint16_t{65535}})
    EXPECT_EQ(rdma::decode_cm_port(rdma::encode_cm_port(port)), port);
}

TEST(RdmaCm, PortMessageRefusesHostileInput) {
  const auto good = rdma::encode_cm_port(4791);
  auto bad_magic = good;
  bad_magic[0] = std::byte{0};
  auto bad_version = good;
  bad_version[4] = std::byte{9};
  auto trailing = good;
  trailing.push_back(std::byte{0});
  const std::vector<std::byte> truncated(good.begin(), good.end() - 1);
  const std::vector<std::byte> huge(1 << 20, std::byte{0x47});
  EXPECT_THROW(rdma::decode_cm_port(rdma::encode_cm_port(0)), rdma::wire_error);
  for (const std::vector<std::byte>* m : std::initializer_list<const std::vector<std::byte>*>{
           &bad_magic, &bad_version, &trailing, &truncated, &huge})
    EXPECT_THROW(rdma::decode_cm_port(*m), rdma::wire_error);
  EXPECT_THROW(rdma::decode_cm_port({}), rdma::wire_error);
  try {
    rdma::decode_cm_port(bad_version);
  } catch (const rdma::wire_error& e) {
    EXPECT_TRUE(has(e.what(), "same gpubench version")) << e.what();
  }
}

TEST(RdmaCm, EventNamesMatchRdmaEventStr) {
  EXPECT_EQ(rdma::to_string(cm_event::addr_resolved), "RDMA_CM_EVENT_ADDR_RESOLVED");
  EXPECT_EQ(rdma::to_string(cm_event::rejected), "RDMA_CM_EVENT_REJECTED");
  EXPECT_EQ(rdma::to_string(cm_event::timewait_exit), "RDMA_CM_EVENT_TIMEWAIT_EXIT");
  EXPECT_TRUE(has(rdma::to_string(static_cast<cm_event>(42)), "42"));
}

TEST(RdmaCm, RejectNamesTheReasonAndThePeer) {
  const auto m = rdma::cm_event_error(cm_event::established, cm_event::rejected, 8,
                                      "198.18.0.2:41000", "connecting");
  EXPECT_TRUE(has(m, "RDMA_CM_EVENT_REJECTED")) << m;
  EXPECT_TRUE(has(m, "status 8")) << m;
  EXPECT_TRUE(has(m, "invalid service ID")) << m;
  EXPECT_TRUE(has(m, "198.18.0.2:41000")) << m;
  EXPECT_TRUE(has(m, "while connecting")) << m;
  EXPECT_TRUE(has(m, "expected RDMA_CM_EVENT_ESTABLISHED")) << m;
  EXPECT_TRUE(has(rdma::reject_reason(28), "application"));
  EXPECT_TRUE(has(rdma::reject_reason(200), "reason code 200"));
}

TEST(RdmaCm, ErrnoStatusesAreExplained) {
  const auto addr = rdma::cm_event_error(cm_event::addr_resolved, cm_event::addr_error, -ENODEV,
                                         "198.18.0.2:41000", "resolving the address");
  EXPECT_TRUE(has(addr, "RDMA_CM_EVENT_ADDR_ERROR")) << addr;
  EXPECT_TRUE(has(addr, std::strerror(ENODEV))) << addr;
  EXPECT_TRUE(has(addr, "IP address")) << addr;  // the hint: rdma_cm addresses by IP
  const auto unreachable = rdma::cm_event_error(cm_event::established, cm_event::unreachable,
                                                -ETIMEDOUT, "198.18.0.2:41000", "connecting");
  EXPECT_TRUE(has(unreachable, "RDMA_CM_EVENT_UNREACHABLE")) << unreachable;
  EXPECT_TRUE(has(unreachable, std::strerror(ETIMEDOUT))) << unreachable;
  const auto gone = rdma::cm_event_error(cm_event::established, cm_event::disconnected, 0,
                                         "198.18.0.2:41000", "accepting the connection");
  EXPECT_TRUE(has(gone, "RDMA_CM_EVENT_DISCONNECTED (status 0)")) << gone;
  const auto timeout = rdma::cm_timeout_error(cm_event::route_resolved, "198.18.0.2:41000",
                                              "resolving the route", std::chrono::seconds(5));
  EXPECT_TRUE(has(timeout, "no RDMA_CM_EVENT_ROUTE_RESOLVED")) << timeout;
  EXPECT_TRUE(has(timeout, "5000 ms")) << timeout;
  EXPECT_TRUE(has(timeout, "198.18.0.2:41000")) << timeout;
}

TEST(RdmaCm, RequestDepthsAreClampedToTheDevice) {
  auto d = rdma::request_depths(rdma::default_out_reads, 4, 8);
  EXPECT_EQ(d.responder_resources, 4);
  EXPECT_EQ(d.initiator_depth, 8);
  d = rdma::request_depths(rdma::default_out_reads, 128, 128);
  EXPECT_EQ(d.responder_resources, 16);
  EXPECT_EQ(d.initiator_depth, 16);
  // A device that reports 0 still gets one read (0 would make every read fail).
  d = rdma::request_depths(rdma::default_out_reads, 0, -1);
  EXPECT_EQ(d.responder_resources, 1);
  EXPECT_EQ(d.initiator_depth, 1);
  d = rdma::request_depths(1000, 100000, 100000);
  EXPECT_EQ(d.responder_resources, 255);  // the 8-bit field of rdma_conn_param
}

TEST(RdmaCm, AcceptDepthsAreClampedToTheRequest) {
  const rdma::cm_depths own{16, 16};
  // The request as the CONNECT_REQUEST event states it: the client issues 4 reads, serves 2.
  const auto d = rdma::accept_depths(own, {4, 2});
  EXPECT_EQ(d.responder_resources, 4);
  EXPECT_EQ(d.initiator_depth, 2);
  const auto small = rdma::accept_depths({2, 1}, {16, 16});
  EXPECT_EQ(small.responder_resources, 2);
  EXPECT_EQ(small.initiator_depth, 1);
}

TEST(RdmaCm, MappedAddressesResolveAsIpv4) {
  EXPECT_EQ(rdma::cm_address("::ffff:198.18.0.2"), "198.18.0.2");
  EXPECT_EQ(rdma::cm_address("198.18.0.2"), "198.18.0.2");
  EXPECT_EQ(rdma::cm_address("fe80::1"), "fe80::1");
  EXPECT_EQ(rdma::cm_address("::ffff:c612:2"), "::ffff:c612:2");
  EXPECT_EQ(rdma::cm_address("::1"), "::1");
}

TEST(RdmaCm, ResolvesFromTheControlConnectionsAddress) {
  // Two NICs in one subnet: the control connection's own address pins the device.
  EXPECT_EQ(rdma::cm_source_address("198.18.1.1", "198.18.1.2", false), "198.18.1.1");
  EXPECT_EQ(rdma::cm_source_address("::ffff:198.18.1.1", "198.18.1.2", false), "198.18.1.1");
  EXPECT_EQ(rdma::cm_source_address("fd00::1", "fd00::2", false), "fd00::1");
  // Loopback: the control connection runs over 127.0.0.1, which no device holds.
  EXPECT_EQ(rdma::cm_source_address("127.0.0.1", "198.18.0.1", true), std::nullopt);
  EXPECT_EQ(rdma::cm_source_address("", "198.18.1.2", false), std::nullopt);
  // A source of the other family could not reach the target.
  EXPECT_EQ(rdma::cm_source_address("fd00::1", "198.18.1.2", false), std::nullopt);
  EXPECT_EQ(rdma::cm_source_address("198.18.1.1", "fd00::2", false), std::nullopt);
}

TEST(RdmaCm, CasesSayRdmaCmAndGuessNoDevice) {
  gpubench::core::run_context ctx;
  ctx.options = {{"rdma-cm", "off"}, {"rdma-device", "mlx5_0"}};
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth)) {
    EXPECT_FALSE(c.contains("connection")) << c.dump();
    EXPECT_EQ(c.value("device", ""), "mlx5_0");
  }
  ctx.options = {{"rdma-cm", "on"}};
  const auto cases = gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth);
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    EXPECT_EQ(c.value("connection", ""), "rdma_cm") << c.dump();
    // rdma_cm picks the device from the address; a guess would be sent as --rdma-device.
    EXPECT_FALSE(c.contains("device")) << c.dump();
  }
  ctx.options = {{"rdma-cm", "on"}, {"rdma-device", "mlx5_1"}};
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth)) {
    EXPECT_EQ(c.value("connection", ""), "rdma_cm");
    EXPECT_EQ(c.value("device", ""), "mlx5_1");  // must then match what rdma_cm picks
  }
}

TEST(RdmaCases, BandwidthCasesNameTheirDirection) {
  gpubench::core::run_context ctx;
  ctx.options = {{"rdma-device", "mlx5_0"}};
  std::vector<std::string> seen;
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth))
    seen.push_back(c.at("op").get<std::string>() + " " + c.at("direction").get<std::string>());
  EXPECT_EQ(seen, (std::vector<std::string>{"send to_peer", "send bidir", "write to_peer",
                                            "write bidir", "read from_peer", "read bidir"}));
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::latency))
    EXPECT_FALSE(c.contains("direction")) << c.dump();
  ctx.options = {{"rdma-direction", "uni"}, {"rdma-op", "read"}};
  const auto uni = gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth);
  ASSERT_EQ(uni.size(), 1u);
  EXPECT_EQ(uni[0].at("direction"), "from_peer");
}

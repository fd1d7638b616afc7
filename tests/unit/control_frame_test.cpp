// The control channel's pure parts: frame encoding and checks, HMAC authentication, peer
// addresses, point specifications and the transport table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/frame.hpp"
#include "transports/net/socket.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports {
namespace {

using namespace control;

TEST(ControlFrame, HeaderRoundTripsBigEndian) {
  const auto bytes = encode_frame(message::point_done, as_bytes("{}"));
  ASSERT_EQ(bytes.size(), frame_header_bytes + 2);
  EXPECT_EQ(as_string(std::span(bytes).first(4)), "GBCC");
  const auto h = decode_header(
      std::span<const std::byte, frame_header_bytes>(bytes.data(), frame_header_bytes));
  EXPECT_EQ(h.magic, frame_magic);
  EXPECT_EQ(h.version, protocol_version);
  EXPECT_EQ(h.type, static_cast<std::uint16_t>(message::point_done));
  EXPECT_EQ(h.length, 2u);
  EXPECT_EQ(std::to_integer<int>(bytes[11]), 2);  // length's low byte last
  EXPECT_NO_THROW(check_header(h));
}

TEST(ControlFrame, RejectsGarbageOversizedAndUnknownFrames) {
  frame_header h;
  h.type = static_cast<std::uint16_t>(message::hello);
  h.magic = 0x47455420;  // "GET ": someone speaking HTTP at the port
  EXPECT_THROW(check_header(h), protocol_error);
  h.magic = frame_magic;
  h.length = max_frame_payload + 1;
  EXPECT_THROW(check_header(h), protocol_error);
  h.length = 0;
  h.type = last_message + 1;
  EXPECT_THROW(check_header(h), protocol_error);
  h.type = 0;
  EXPECT_THROW(check_header(h), protocol_error);
  // Another version's types are not ours to judge: the caller answers the version in words.
  h.version = protocol_version + 1;
  h.type = 999;
  EXPECT_NO_THROW(check_header(h));
  std::vector<std::byte> big(max_frame_payload + 1);
  EXPECT_THROW(encode_frame(message::blob, big), protocol_error);
}

TEST(ControlAuth, MacIsKeyedAndBoundToDirectionAndNonces) {
  const auto a = auth_mac("Jefe", "client", "c1", "s1");
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a, auth_mac("Jefe", "client", "c1", "s1"));
  EXPECT_NE(a, auth_mac("jefe", "client", "c1", "s1"));
  EXPECT_NE(a, auth_mac("Jefe", "server", "c1", "s1"));
  EXPECT_NE(a, auth_mac("Jefe", "client", "c1", "s2"));
  EXPECT_NE(a, auth_mac("Jefe", "client", "c1s", "1"));
}

TEST(ControlAuth, NoncesAreFreshAndComparisonIsExact) {
  const auto n1 = make_nonce(), n2 = make_nonce();
  EXPECT_EQ(n1.size(), 64u);
  EXPECT_NE(n1, n2);
  EXPECT_TRUE(equal_constant_time("abc", "abc"));
  EXPECT_FALSE(equal_constant_time("abc", "abd"));
  EXPECT_FALSE(equal_constant_time("abc", "abcd"));
}

TEST(ControlAuth, TokenFileIsTrimmedAndMustExist) {
  const auto path = std::filesystem::temp_directory_path() / "gpubench-token-test.txt";
  { std::ofstream(path) << "  s3cret\n"; }
  EXPECT_EQ(read_token_file(path), "s3cret");
  { std::ofstream(path) << " \n"; }
  EXPECT_THROW(read_token_file(path), core::input_error);
  std::filesystem::remove(path);
  EXPECT_THROW(read_token_file(path), core::input_error);
}

TEST(PeerAddress, ParsesHostPortAndIpv6) {
  auto a = net::parse_endpoint("198.18.0.2", 18515);
  EXPECT_EQ(a.host, "198.18.0.2");
  EXPECT_EQ(a.port, 18515);
  a = net::parse_endpoint("198.18.0.2:9000", 18515);
  EXPECT_EQ(a.port, 9000);
  EXPECT_EQ(a.text(), "198.18.0.2:9000");
  a = net::parse_endpoint("[::1]:9000", 18515);
  EXPECT_EQ(a.host, "::1");
  EXPECT_EQ(a.text(), "[::1]:9000");
  a = net::parse_endpoint("fe80::1", 18515);
  EXPECT_EQ(a.host, "fe80::1");
  EXPECT_THROW(net::parse_endpoint("host:0", 1), core::usage_error);
  EXPECT_THROW(net::parse_endpoint("host:70000", 1), core::usage_error);
  EXPECT_THROW(net::parse_endpoint(":80", 1), core::usage_error);
  EXPECT_THROW(net::parse_endpoint("host:x", 1), core::usage_error);
}

TEST(PointSpec, RoundTripsThroughJsonAndRejectsBadInput) {
  point_spec p;
  p.kind = pattern::bandwidth;
  p.dir = direction::bidir;
  p.bytes = 4096;
  p.iterations = 7;
  const auto q = point_spec_from_json(to_json(p));
  EXPECT_EQ(q.kind, p.kind);
  EXPECT_EQ(q.dir, p.dir);
  EXPECT_EQ(q.bytes, 4096u);
  EXPECT_EQ(q.iterations, 7u);
  auto j = to_json(p);
  j["iterations"] = 0;
  EXPECT_THROW(point_spec_from_json(j), std::runtime_error);
  j = to_json(p);
  j["direction"] = "sideways";
  EXPECT_ANY_THROW(point_spec_from_json(j));
  EXPECT_THROW(point_spec_from_json(nlohmann::json::object()), std::runtime_error);
}

TEST(PointTotals, RoundTripThroughJson) {
  point_totals t;
  t.cpu = {0.25, 0.5};
  t.bytes = 1ull << 40;
  t.messages = 12;
  const auto u = point_totals_from_json(to_json(t));
  EXPECT_DOUBLE_EQ(u.cpu.total(), 0.75);
  EXPECT_EQ(u.bytes, 1ull << 40);
  EXPECT_EQ(u.messages, 12u);
  EXPECT_FALSE(u.machine_cpu_time);  // none measured, none sent
  EXPECT_FALSE(to_json(t).contains("machine_cpu"));
}

// The whole machine's figures travel beside the thread's; a peer older than them sends none,
// and its totals still read.
TEST(PointTotals, MachineCpuTravelsAndOldPeersStillRead) {
  point_totals t;
  t.cpu = {0.25, 0.5};
  t.bytes = 1000;
  t.messages = 1;
  t.machine_cpu_time = core::machine_cpu{1.5, 2.0, 0.125, 0.75, 4.0};
  t.machine = "6b1f5c7e-0000-4000-8000-000000000001";
  const auto u = point_totals_from_json(to_json(t));
  ASSERT_TRUE(u.machine_cpu_time);
  EXPECT_DOUBLE_EQ(u.machine_cpu_time->softirq, 0.75);
  EXPECT_DOUBLE_EQ(u.machine_cpu_time->total(), 4.375);
  EXPECT_EQ(u.machine, t.machine);
  const nlohmann::json old_peer = {
      {"cpu_user", 0.25}, {"cpu_system", 0.5}, {"bytes", 1000}, {"messages", 1}};
  const auto v = point_totals_from_json(old_peer);
  EXPECT_FALSE(v.machine_cpu_time);
  EXPECT_TRUE(v.machine.empty());
  auto bad = to_json(t);
  bad["machine_cpu"]["irq"] = "lots";
  EXPECT_THROW(point_totals_from_json(bad), std::runtime_error);
}

TEST(TransportTable, FindsByNameAndRefusesDuplicates) {
  transport_table t;
  t.add({"tcp", nullptr, nullptr, ""});
  t.add({"rdma", nullptr, nullptr, "built without libibverbs"});
  ASSERT_NE(t.find("rdma"), nullptr);
  EXPECT_EQ(t.find("rdma")->unavailable, "built without libibverbs");
  EXPECT_EQ(t.find("udp"), nullptr);
  EXPECT_EQ(t.names(), (std::vector<std::string>{"rdma", "tcp"}));
  EXPECT_THROW(t.add({"tcp", nullptr, nullptr, ""}), std::logic_error);
}

}  // namespace
}  // namespace gpubench::transports

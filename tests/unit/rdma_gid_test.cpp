// GID selection for RoCE: zero entries skipped, IPv4-mapped preferred, RoCE v2 over v1,
// global over link-local; an explicit index checked.
#include <gtest/gtest.h>

#include "transports/rdma/gid_select.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

rdma::gid_bytes link_local() {
  return {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 2, 0x50, 0x56, 0xff, 0xfe, 1, 2, 3};
}
rdma::gid_bytes ipv4(int last) {
  return {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, static_cast<std::uint8_t>(last)};
}
rdma::gid_bytes global6() {
  return {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
}

}  // namespace

TEST(RdmaGid, TypicalRoceTablePicksIpv4RoceV2) {
  // The usual mlx5 table: 0/1 link-local v1/v2, 2/3 IPv4 v1/v2.
  const std::vector<rdma::gid_entry> t = {{0, link_local(), rdma::gid_type::roce_v1},
                                          {1, link_local(), rdma::gid_type::roce_v2},
                                          {2, ipv4(2), rdma::gid_type::roce_v1},
                                          {3, ipv4(2), rdma::gid_type::roce_v2}};
  EXPECT_EQ(rdma::select_gid(t).index, 3);
  EXPECT_EQ(rdma::select_gid(t, rdma::gid_family::ipv6).index, 1);
}

TEST(RdmaGid, SkipsZeroAndPrefersGlobal) {
  const std::vector<rdma::gid_entry> t = {{0, {}, rdma::gid_type::roce_v2},
                                          {1, link_local(), rdma::gid_type::roce_v2},
                                          {4, global6(), rdma::gid_type::roce_v2}};
  EXPECT_EQ(rdma::select_gid(t, rdma::gid_family::ipv6).index, 4);
  // No IPv4 entry: the best IPv6 one still serves.
  EXPECT_EQ(rdma::select_gid(t).index, 4);
}

TEST(RdmaGid, EmptyTableSaysWhy) {
  const std::vector<rdma::gid_entry> t = {{0, {}, rdma::gid_type::roce_v2}};
  const auto c = rdma::select_gid(t);
  EXPECT_EQ(c.index, -1);
  EXPECT_NE(c.why.find("no non-zero"), std::string::npos);
}

TEST(RdmaGid, ExplicitIndexChecked) {
  const std::vector<rdma::gid_entry> t = {{0, link_local(), rdma::gid_type::roce_v1},
                                          {1, {}, rdma::gid_type::roce_v2}};
  EXPECT_EQ(rdma::check_gid_index(t, 0).index, 0);
  EXPECT_EQ(rdma::check_gid_index(t, 1).index, -1);
  EXPECT_EQ(rdma::check_gid_index(t, 7).index, -1);
  EXPECT_NE(rdma::check_gid_index(t, 7).why.find("--gid-index 7"), std::string::npos);
}

TEST(RdmaGid, Formatting) {
  EXPECT_EQ(rdma::format_gid(ipv4(2)), "::ffff:198.18.0.2");
  EXPECT_EQ(rdma::format_gid(global6()), "2001:0db8:0000:0000:0000:0000:0000:0001");
  EXPECT_TRUE(rdma::is_link_local(link_local()));
  EXPECT_FALSE(rdma::is_link_local(ipv4(1)));
  EXPECT_EQ(rdma::family_of(ipv4(1)), rdma::gid_family::ipv4);
}

TEST(RdmaGid, RoceV1AgainstV2IsRefusedByName) {
  rdma::endpoint_info a, b;
  a.has_gid = b.has_gid = true;
  a.gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 1};
  b.gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 2};
  a.gid_kind = b.gid_kind = rdma::gid_type::roce_v2;
  EXPECT_EQ(rdma::gid_mismatch(a, b), "");
  b.gid_kind = rdma::gid_type::roce_v1;
  const auto why = rdma::gid_mismatch(a, b);
  EXPECT_NE(why.find("RoCE v2"), std::string::npos) << why;
  EXPECT_NE(why.find("RoCE v1"), std::string::npos) << why;
  b.gid_kind = rdma::gid_type::roce_v2;
  b.has_gid = false;
  EXPECT_NE(rdma::gid_mismatch(a, b), "");
  b.has_gid = true;
  b.gid = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  EXPECT_NE(rdma::gid_mismatch(a, b).find("families"), std::string::npos);
}

TEST(RdmaGid, TheControlConnectionsAddressPicksTheGid) {
  // Two interfaces on one port: the lowest IPv4 RoCE v2 GID (index 3) is 198.18.0.1, but the
  // control connection runs over 198.18.1.1: that is the rail to use.
  const rdma::gid_bytes a{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 1};
  const rdma::gid_bytes b{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 1, 1};
  const std::vector<rdma::gid_entry> table{{2, a, rdma::gid_type::roce_v1},
                                           {3, a, rdma::gid_type::roce_v2},
                                           {4, b, rdma::gid_type::roce_v1},
                                           {5, b, rdma::gid_type::roce_v2}};
  EXPECT_EQ(rdma::select_gid(table).index, 3);  // the old rule
  const auto local = rdma::gid_of_address("198.18.1.1");
  ASSERT_TRUE(local);
  EXPECT_EQ(*local, b);
  EXPECT_EQ(rdma::index_holding(table, *local), 5);
  EXPECT_EQ(rdma::index_holding(table, *rdma::gid_of_address("::ffff:198.18.1.1")), 5);
  // Loopback: no GID holds 127.0.0.1, so the caller falls back to select_gid.
  EXPECT_EQ(rdma::index_holding(table, *rdma::gid_of_address("127.0.0.1")), -1);
  EXPECT_FALSE(rdma::gid_of_address("not-an-address"));
}

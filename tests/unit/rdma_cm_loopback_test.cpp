// The address rdma_cm resolves in loopback (transports/rdma/cm_loopback.hpp): the control
// connection's 127.0.0.1 has no RoCE GID, so rdma_resolve_route fails there (issue 14).
#include <gtest/gtest.h>

#include "transports/rdma/cm_loopback.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

rdma::gid_entry lb_entry(int index, rdma::gid_bytes gid, rdma::gid_type type) {
  return {index, gid, type};
}

const rdma::gid_bytes lb_link_local{0xfe, 0x80, 0,    0,    0,    0,    0,    0,
                                    0xf4, 0xb4, 0x3b, 0xff, 0xfe, 0x92, 0x4e, 0x82};
const rdma::gid_bytes lb_v4{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 1};
const rdma::gid_bytes lb_global6{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};

}  // namespace

TEST(RdmaCmLoopback, LoopbackAddresses) {
  EXPECT_TRUE(rdma::is_loopback_address("127.0.0.1"));
  EXPECT_TRUE(rdma::is_loopback_address("127.1.2.3"));
  EXPECT_TRUE(rdma::is_loopback_address("::1"));
  EXPECT_TRUE(rdma::is_loopback_address("::ffff:127.0.0.1"));
  EXPECT_FALSE(rdma::is_loopback_address("198.18.0.1"));
  EXPECT_FALSE(rdma::is_loopback_address("128.0.0.1"));
  EXPECT_FALSE(rdma::is_loopback_address("::2"));
  EXPECT_FALSE(rdma::is_loopback_address("fe80::1"));
  EXPECT_FALSE(rdma::is_loopback_address("localhost"));  // numeric only
  EXPECT_FALSE(rdma::is_loopback_address(""));
}

// rxe on a veth with 198.18.0.1: link-local v1/v2 entries first, then the IPv4 ones.
TEST(RdmaCmLoopback, PicksTheIpv4AddressOfTheRoceV2Gid) {
  const std::vector<rdma::gid_entry> table{lb_entry(0, lb_link_local, rdma::gid_type::roce_v1),
                                           lb_entry(1, lb_link_local, rdma::gid_type::roce_v2),
                                           lb_entry(2, lb_v4, rdma::gid_type::roce_v1),
                                           lb_entry(3, lb_v4, rdma::gid_type::roce_v2)};
  EXPECT_EQ(rdma::loopback_cm_address(table), "198.18.0.1");
}

TEST(RdmaCmLoopback, GlobalIpv6WhenThereIsNoIpv4) {
  const std::vector<rdma::gid_entry> table{lb_entry(0, lb_link_local, rdma::gid_type::roce_v2),
                                           lb_entry(1, lb_global6, rdma::gid_type::roce_v2)};
  const auto a = rdma::loopback_cm_address(table);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*a, "2001:0db8:0000:0000:0000:0000:0000:0007");
}

TEST(RdmaCmLoopback, NothingWithoutAnIpBasedGid) {
  EXPECT_FALSE(rdma::loopback_cm_address({}).has_value());
  // Only link-local: no address of this host rdma_cm could route to.
  EXPECT_FALSE(
      rdma::loopback_cm_address({lb_entry(0, lb_link_local, rdma::gid_type::roce_v2)}).has_value());
  // InfiniBand: the GID is no IP address.
  const rdma::gid_bytes ib{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 2, 0xc9, 0x03, 0, 0x1e, 0x2f, 0x31};
  EXPECT_FALSE(rdma::loopback_cm_address({lb_entry(0, ib, rdma::gid_type::ib)}).has_value());
}

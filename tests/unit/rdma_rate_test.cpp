// Port speed x width to line rate, sysfs rate text, and MTU codes.
#include <gtest/gtest.h>

#include "transports/rdma/port_rate.hpp"

namespace rdma = gpubench::transports::rdma;

TEST(RdmaRate, SpeedAndWidthCodes) {
  const auto edr4 = rdma::rate_from_codes(32, 2);  // 4X EDR
  ASSERT_TRUE(edr4);
  EXPECT_DOUBLE_EQ(edr4->gbit_per_s, 100.0);
  EXPECT_DOUBLE_EQ(edr4->gbyte_per_s, 12.5);
  EXPECT_NE(edr4->basis.find("4X EDR"), std::string::npos) << edr4->basis;
  EXPECT_DOUBLE_EQ(rdma::rate_from_codes(64, 2)->gbyte_per_s, 25.0);     // HDR 200 Gb/s
  EXPECT_DOUBLE_EQ(rdma::rate_from_codes(128, 2)->gbyte_per_s, 50.0);    // NDR 400 Gb/s
  EXPECT_DOUBLE_EQ(rdma::rate_from_codes(4, 2)->gbit_per_s, 32.0);       // QDR: 8b/10b
  EXPECT_NEAR(rdma::rate_from_codes(16, 2)->gbit_per_s, 54.545, 0.001);  // FDR: 64b/66b
  EXPECT_DOUBLE_EQ(rdma::rate_from_codes(32, 1)->gbit_per_s, 25.0);      // 25 GbE RoCE
  EXPECT_DOUBLE_EQ(rdma::rate_from_codes(64, 16)->gbit_per_s, 100.0);    // 2X HDR
  EXPECT_FALSE(rdma::rate_from_codes(3, 2));
  EXPECT_FALSE(rdma::rate_from_codes(32, 3));
}

TEST(RdmaRate, SysfsRateText) {
  const auto r = rdma::rate_from_sysfs("200 Gb/sec (4X HDR)");
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->gbyte_per_s, 25.0);
  EXPECT_NE(r->basis.find("4X HDR"), std::string::npos);
  EXPECT_DOUBLE_EQ(rdma::rate_from_sysfs("2.5 Gb/sec (1X SDR)")->gbit_per_s, 2.5);
  EXPECT_DOUBLE_EQ(rdma::rate_from_sysfs("10 Gb/sec")->gbit_per_s, 10.0);
  EXPECT_FALSE(rdma::rate_from_sysfs("invalid"));
  EXPECT_FALSE(rdma::rate_from_sysfs("0 Gb/sec"));
  EXPECT_FALSE(rdma::rate_from_sysfs(""));
}

// A both-ways case is set against both directions: a healthy 4X HDR port moving 45 GB/s in
// all reads 90 % of 50 GB/s, not 180 % of 25.
TEST(RdmaRate, BothDirectionsDoubleTheLineRate) {
  const auto hdr = rdma::rate_from_codes(64, 2);
  ASSERT_TRUE(hdr);
  const auto both = rdma::for_directions(*hdr, true);
  EXPECT_DOUBLE_EQ(both.gbyte_per_s, 50.0);
  EXPECT_DOUBLE_EQ(both.gbit_per_s, 400.0);
  EXPECT_NE(both.basis.find("both directions"), std::string::npos) << both.basis;
  EXPECT_NE(both.basis.find("4X HDR"), std::string::npos) << both.basis;
  EXPECT_LE(45.0 / both.gbyte_per_s, 1.0);
  const auto one = rdma::for_directions(*hdr, false);
  EXPECT_DOUBLE_EQ(one.gbyte_per_s, 25.0);
  EXPECT_EQ(one.basis, hdr->basis);
  // RoCE: the netdev's speed, doubled the same way.
  const auto roce =
      rdma::port_line_rate(true, 1, 1, "", rdma::netdev_link{"eth1", 1000, "e1000", {}, {}, {}});
  ASSERT_TRUE(roce);
  EXPECT_DOUBLE_EQ(rdma::for_directions(*roce, true).gbyte_per_s, 0.25);
}

TEST(RdmaRate, MtuCodesAndNegotiation) {
  EXPECT_EQ(rdma::mtu_bytes(1), 256);
  EXPECT_EQ(rdma::mtu_bytes(5), 4096);
  EXPECT_FALSE(rdma::mtu_bytes(0));
  EXPECT_FALSE(rdma::mtu_bytes(6));
  EXPECT_EQ(rdma::mtu_code(1024), 3);
  EXPECT_FALSE(rdma::mtu_code(1500));
  // A 4096 InfiniBand port against a RoCE port behind a 1500-byte Ethernet MTU (1024).
  EXPECT_EQ(rdma::negotiate_mtu(5, 3), 3);
  EXPECT_EQ(rdma::negotiate_mtu(3, 5), 3);
}

TEST(RdmaRate, RoceLineRateFromTheNetdevSpeed) {
  // mlx5 reports 40 GbE as 4X QDR and 10 GbE as 1X QDR: 8b/10b lanes, 32 and 8 Gb/s, so
  // results read about 117 % of line rate; the netdev's speed is what the wire runs at.
  EXPECT_DOUBLE_EQ(rdma::rate_from_codes(4, 2)->gbit_per_s, 32.0);
  const rdma::netdev_link forty{"ens1f0np0", 40000, "mlx5_core", {}, {}, {}};
  const auto r40 = rdma::port_line_rate(true, 4, 2, "40 Gb/sec (4X QDR)", forty);
  ASSERT_TRUE(r40);
  EXPECT_DOUBLE_EQ(r40->gbit_per_s, 40.0);
  EXPECT_DOUBLE_EQ(r40->gbyte_per_s, 5.0);
  EXPECT_NE(r40->basis.find("ens1f0np0 40000 Mb/s as the mlx5_core driver claims it"),
            std::string::npos)
      << r40->basis;
  const rdma::netdev_link ten{"ens1f1np1", 10000, "mlx5_core", {}, {}, {}};
  EXPECT_DOUBLE_EQ(rdma::port_line_rate(true, 4, 1, "10 Gb/sec (1X QDR)", ten)->gbit_per_s, 10.0);
  // Soft-RoCE on a 100 Mb/s link says 1X SDR (2 Gb/s of data).
  const rdma::netdev_link slow{"eth0", 100, "e1000", {}, {}, {}};
  EXPECT_DOUBLE_EQ(rdma::port_line_rate(true, 1, 1, "2.5 Gb/sec (1X SDR)", slow)->gbit_per_s, 0.1);
  // vmxnet3's figure is a claim, whatever the uplink: the basis says so.
  const rdma::netdev_link vmx{"ens224", 10000, "vmxnet3", {}, {}, {}};
  EXPECT_NE(rdma::port_line_rate(true, 0, 0, "", vmx)->basis.find("whatever the uplink"),
            std::string::npos);
}

TEST(RdmaRate, RoceWithoutNetdevSpeedAndInfiniband) {
  // A netdev without a speed (virtio, veth): the codes, said to be the driver's mapping.
  const rdma::netdev_link unknown{"eth0", std::nullopt, "virtio_net", {}, {}, {}};
  const auto r = rdma::port_line_rate(true, 1, 1, "2.5 Gb/sec (1X SDR)", unknown);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->gbit_per_s, 2.0);
  EXPECT_NE(r->basis.find("eth0 gives no speed"), std::string::npos) << r->basis;
  EXPECT_NE(rdma::port_line_rate(true, 1, 1, "", std::nullopt)->basis.find("no netdev found"),
            std::string::npos);
  // InfiniBand: the codes, whatever a netdev says (IPoIB's speed is not the link's).
  const rdma::netdev_link ipoib{"ib0", 40000, "", {}, {}, {}};
  const auto ib = rdma::port_line_rate(false, 64, 2, "200 Gb/sec (4X HDR)", ipoib);
  EXPECT_DOUBLE_EQ(ib->gbit_per_s, 200.0);
  EXPECT_EQ(ib->basis.find("claims"), std::string::npos);
  // Unknown codes: the kernel's sysfs rate.
  EXPECT_DOUBLE_EQ(rdma::port_line_rate(false, 0, 0, "800 Gb/sec (4X XDR)", {})->gbit_per_s, 800.0);
  EXPECT_FALSE(rdma::port_line_rate(false, 0, 0, "", {}));
}

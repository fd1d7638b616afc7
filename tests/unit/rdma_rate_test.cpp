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

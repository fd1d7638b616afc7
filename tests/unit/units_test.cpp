#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/units.hpp"

using namespace gpubench::core;

TEST(Units, ParseBytes) {
  EXPECT_EQ(parse_bytes("64"), 64u);
  EXPECT_EQ(parse_bytes("4K"), 4096u);
  EXPECT_EQ(parse_bytes("4kib"), 4096u);
  EXPECT_EQ(parse_bytes("1GiB"), 1ull << 30);
  EXPECT_EQ(parse_bytes("2 M"), 2ull << 20);
  EXPECT_THROW(parse_bytes("abc"), usage_error);
  EXPECT_THROW(parse_bytes("4X"), usage_error);
  EXPECT_THROW(parse_bytes("99999999999T"), usage_error);
}

TEST(Units, FormatBytes) {
  EXPECT_EQ(format_bytes(48), "48 B");
  EXPECT_EQ(format_bytes(4096), "4 KiB");
  EXPECT_EQ(format_bytes(1ull << 30), "1 GiB");
  EXPECT_EQ(format_bytes(1536), "1536 B");
}

TEST(Units, SizeRange) {
  const auto r = parse_size_range("4K:64M");
  EXPECT_EQ(r.min, 4096u);
  EXPECT_EQ(r.max, 64ull << 20);
  EXPECT_THROW(parse_size_range("64M:4K"), usage_error);
  EXPECT_THROW(parse_size_range("0:4K"), usage_error);
  EXPECT_EQ(r.factor, 2u);
  EXPECT_EQ(r.text(), "4096:67108864");
}

TEST(Units, SizeRangeFactor) {
  const auto r = parse_size_range("2:1M:8");
  EXPECT_EQ(r.factor, 8u);
  EXPECT_EQ(r.text(), "2:1048576:8");
  // 2, 16, 128, 1K, 8K, 64K, 512K and the maximum itself.
  EXPECT_EQ(sweep(r), (std::vector<std::uint64_t>{2, 16, 128, 1024, 8192, 65536, 524288,
                                                  1048576}));
  EXPECT_EQ(sweep(parse_size_range("4K:64K:16")), (std::vector<std::uint64_t>{4096, 65536}));
  EXPECT_EQ(sweep(parse_size_range("4K")), (std::vector<std::uint64_t>{4096}));
  // A factor past MAX/MIN leaves the two ends, and never overflows.
  EXPECT_EQ(sweep(parse_size_range("2:4K:2048")), (std::vector<std::uint64_t>{2, 4096}));
  EXPECT_EQ(sweep(parse_size_range("1G:4G:18446744073709551615")),
            (std::vector<std::uint64_t>{1ull << 30, 4ull << 30}));
  for (const char* bad : {"2:1M:1", "2:1M:0", "2:1M:x", "2:1M:", "2:1M:-4", "2:1M:4K",
                          "2:1M:99999999999999999999"})
    EXPECT_THROW(parse_size_range(bad), usage_error) << bad;
}

TEST(Units, PowerOfTwoSweep) {
  EXPECT_EQ(power_of_two_sweep(4096, 32768),
            (std::vector<std::uint64_t>{4096, 8192, 16384, 32768}));
  EXPECT_EQ(power_of_two_sweep(1, 1), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(power_of_two_sweep(3, 10), (std::vector<std::uint64_t>{3, 6, 10}));
  EXPECT_TRUE(power_of_two_sweep(8, 4).empty());
}

TEST(Units, PcieLaneRateAfterLineCoding) {
  // Gen 1-2: 2.5 and 5 GT/s with 8b/10b.
  EXPECT_DOUBLE_EQ(pcie_lane_gbps(1), 0.25);
  EXPECT_DOUBLE_EQ(pcie_lane_gbps(2), 0.5);
  // Gen 3-5: 8, 16 and 32 GT/s with 128b/130b; x16 gives the published 15.75, 31.5, 63.0 GB/s.
  EXPECT_NEAR(pcie_lane_gbps(3), 0.984615384615, 1e-9);
  EXPECT_NEAR(pcie_lane_gbps(4), 1.969230769231, 1e-9);
  EXPECT_NEAR(pcie_lane_gbps(5), 3.938461538462, 1e-9);
  EXPECT_NEAR(16 * pcie_lane_gbps(3), 15.75, 0.01);
  EXPECT_NEAR(16 * pcie_lane_gbps(4), 31.5, 0.01);
  EXPECT_NEAR(16 * pcie_lane_gbps(5), 63.0, 0.02);
  // Gen 6: 64 GT/s PAM4 in 256-byte FLITs, 242 of whose bytes carry TLPs and DLLPs.
  EXPECT_DOUBLE_EQ(pcie_lane_gbps(6), 7.5625);
  // A generation it does not know has no rate rather than a guess.
  for (const int unknown : {0, -1, 7, 100})
    EXPECT_EQ(pcie_lane_gbps(unknown), 0.0) << "generation " << unknown;
}

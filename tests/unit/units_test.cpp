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
}

TEST(Units, PowerOfTwoSweep) {
  EXPECT_EQ(power_of_two_sweep(4096, 32768),
            (std::vector<std::uint64_t>{4096, 8192, 16384, 32768}));
  EXPECT_EQ(power_of_two_sweep(1, 1), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(power_of_two_sweep(3, 10), (std::vector<std::uint64_t>{3, 6, 10}));
  EXPECT_TRUE(power_of_two_sweep(8, 4).empty());
}

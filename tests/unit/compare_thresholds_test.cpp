// --threshold values: percentages, per-id and prefix overrides, and clear refusals.
#include "reports/compare/threshold_spec.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace gpubench::reports::compare {
namespace {

TEST(compare_thresholds, percentages_with_or_without_the_sign) {
  EXPECT_DOUBLE_EQ(parse_percent("5%", "t"), 0.05);
  EXPECT_DOUBLE_EQ(parse_percent("12.5", "t"), 0.125);
  EXPECT_DOUBLE_EQ(parse_percent("0%", "t"), 0.0);
  EXPECT_THROW(parse_percent("-1%", "t"), core::usage_error);
  EXPECT_THROW(parse_percent("%", "t"), core::usage_error);
  EXPECT_THROW(parse_percent("5%%", "t"), core::usage_error);
  EXPECT_THROW(parse_percent("five", "t"), core::usage_error);
  EXPECT_THROW(parse_percent("nan", "t"), core::usage_error);
}

TEST(compare_thresholds, global_and_per_benchmark) {
  const thresholds t = parse_thresholds({"10%", "net.tcp.latency=20%", "gpu.*=3"});
  EXPECT_DOUBLE_EQ(t.global, 0.10);
  EXPECT_DOUBLE_EQ(t.for_benchmark("net.tcp.latency"), 0.20);
  EXPECT_DOUBLE_EQ(t.for_benchmark("gpu.h2d"), 0.03);
  EXPECT_DOUBLE_EQ(t.for_benchmark("memory.host.copy"), 0.10);
  EXPECT_DOUBLE_EQ(parse_thresholds({}).global, 0.05);
}

TEST(compare_thresholds, refuses_malformed_keys) {
  EXPECT_THROW(parse_thresholds({"=5%"}), core::usage_error);
  EXPECT_THROW(parse_thresholds({"net.*.latency=5%"}), core::usage_error);
  EXPECT_THROW(parse_thresholds({"Net.TCP=5%"}), core::usage_error);
  EXPECT_THROW(parse_thresholds({"net.tcp.latency="}), core::usage_error);
}

TEST(compare_thresholds, unknown_keys_are_reported) {
  const thresholds t = parse_thresholds({"net.tcp.latncy=5%", "net.*=5%", "coll.*=1%"});
  const std::vector<std::string> ids = {"net.tcp.latency", "memory.host.copy"};
  const std::vector<std::string> expected = {"coll.*", "net.tcp.latncy"};
  EXPECT_EQ(unknown_threshold_keys(t, ids), expected);
}

}  // namespace
}  // namespace gpubench::reports::compare

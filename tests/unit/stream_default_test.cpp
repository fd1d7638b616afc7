// The default number of parallel TCP streams (benchmarks/network/stream_default.hpp): what
// fills the link, not one per core, and the rule written into the case's params.
#include <gtest/gtest.h>

#include "benchmarks/network/stream_default.hpp"

namespace gpubench::benchmarks::network {
namespace {

TEST(StreamDefault, OnePerTenGbitOfTheLink) {
  EXPECT_EQ(streams_for_link(100000, 64).count, 10u);
  EXPECT_EQ(streams_for_link(25000, 64).count, 3u);
  EXPECT_EQ(streams_for_link(400000, 128).count, 16u);  // 16 at most, however many cores
  EXPECT_EQ(streams_for_link(1000, 64).count, 2u);      // 2 at least: 1 stream is its own case
  EXPECT_NE(streams_for_link(100000, 64).rule.find("100 Gbit/s"), std::string::npos);
}

TEST(StreamDefault, NotMoreThanTheCores) {
  EXPECT_EQ(streams_for_link(100000, 4).count, 4u);
  EXPECT_EQ(streams_for_link(100000, 1).count, 2u);
}

TEST(StreamDefault, FourWhenTheSpeedIsUnknown) {
  for (const auto speed : {std::optional<long long>{}, std::optional<long long>{-1}}) {
    const auto d = streams_for_link(speed, 128);
    EXPECT_EQ(d.count, 4u);  // not 128: the core count is not what a link needs
    EXPECT_NE(d.rule.find("unknown"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpubench::benchmarks::network

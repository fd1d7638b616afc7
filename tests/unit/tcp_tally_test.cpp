// The tally of TCP bandwidth samples (transports/tcp/tally.hpp): its words on the wire and the
// window between two marks, which must refuse what a broken or hostile peer could send.
#include <gtest/gtest.h>

#include "transports/tcp/tally.hpp"

namespace gpubench::transports::tcp {
namespace {

TEST(TcpTally, WordsAreBigEndianAndRoundTrip) {
  const std::vector<std::uint64_t> words{0, 1, 0x0102030405060708ull, ~0ull};
  const auto bytes = encode_words(words);
  ASSERT_EQ(bytes.size(), 32u);
  EXPECT_EQ(bytes[16], std::byte{0x01});
  EXPECT_EQ(bytes[23], std::byte{0x08});
  EXPECT_EQ(decode_words(bytes), words);
  EXPECT_THROW(decode_words(std::span(bytes).first(7)), std::invalid_argument);
}

TEST(TcpTally, WindowIsEachStreamsBytesOverTheReceiversClock) {
  const tally_mark a{1'000'000'000, {100, 5000}};
  const tally_mark b{1'050'000'000, {100 + 6'000'000, 5000 + 250'000}};
  const auto d = delta(a, b);
  EXPECT_DOUBLE_EQ(d.seconds, 0.05);
  ASSERT_EQ(d.bytes.size(), 2u);
  // A stream held back is counted for what it moved, the other for all it moved.
  EXPECT_EQ(d.bytes[0], 6'000'000u);
  EXPECT_EQ(d.bytes[1], 250'000u);
}

TEST(TcpTally, WindowRefusesBadMarks) {
  const tally_mark a{10, {1, 2}};
  EXPECT_THROW(delta(a, {10, {1, 2}}), std::runtime_error);     // clock did not move
  EXPECT_THROW(delta(a, {5, {1, 2}}), std::runtime_error);      // clock went back
  EXPECT_THROW(delta(a, {20, {0, 2}}), std::runtime_error);     // a counter went back
  EXPECT_THROW(delta(a, {20, {1, 2, 3}}), std::runtime_error);  // other streams
}

TEST(TcpTally, LocalMarkReadsTheCounters) {
  std::vector<stream_counters> c(3);
  c[1].received = 42;
  c[2].sent = 7;  // what was sent is not what a receiver's mark counts
  const auto m = local_mark(c);
  EXPECT_EQ(m.received, (std::vector<std::uint64_t>{0, 42, 0}));
  EXPECT_GT(m.nanoseconds, 0u);
}

}  // namespace
}  // namespace gpubench::transports::tcp

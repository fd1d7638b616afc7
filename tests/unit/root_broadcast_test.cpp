#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "transports/process_group.hpp"

namespace {

// One member of a two-rank group: `any` also sees the other member's flag, `broadcast`
// records that it was entered.
class scripted_group final : public gpubench::transports::process_group {
 public:
  scripted_group(int rank, bool other_true) : m_rank(rank), m_other(other_true) {}
  int rank() const override { return m_rank; }
  int size() const override { return 2; }
  void barrier() override {}
  gpubench::transports::rank_times reduce_time(double s) override { return {s, s, s}; }
  std::uint64_t sum(std::uint64_t v) override { return v; }
  bool any(bool v) override {
    ++any_calls;
    return v || m_other;
  }
  std::uint32_t any_bits(std::uint32_t bits) override { return bits; }
  void broadcast(std::span<std::byte>, int root) override {
    ++broadcasts;
    broadcast_root = root;
  }
  std::vector<std::byte> allgather(std::span<const std::byte> mine) override {
    return {mine.begin(), mine.end()};
  }
  int any_calls = 0;
  int broadcasts = 0;
  int broadcast_root = -1;

 private:
  int m_rank;
  bool m_other;
};

}  // namespace

TEST(RootBroadcast, RootMakesThenEveryMemberBroadcasts) {
  std::array<std::byte, 4> data{};
  scripted_group root(0, false), other(1, false);
  int made = 0;
  const auto make = [&] { ++made; };
  gpubench::transports::make_and_broadcast(root, data, 0, make);
  gpubench::transports::make_and_broadcast(other, data, 0, make);
  EXPECT_EQ(made, 1);  // on root alone
  EXPECT_EQ(root.broadcasts, 1);
  EXPECT_EQ(other.broadcasts, 1);
  EXPECT_EQ(other.broadcast_root, 0);
}

TEST(RootBroadcast, RootFailureFailsEveryMemberBeforeTheBroadcast) {
  std::array<std::byte, 4> data{};
  // Root: make throws; it still takes part in the collective decision, then throws its own
  // message, never entering the broadcast.
  scripted_group root(0, false);
  try {
    gpubench::transports::make_and_broadcast(
        root, data, 0, [] { throw std::runtime_error("ncclGetUniqueId: boom"); });
    FAIL() << "root did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "ncclGetUniqueId: boom");
  }
  EXPECT_EQ(root.any_calls, 1);
  EXPECT_EQ(root.broadcasts, 0);
  // Another member: root's failure arrives through `any`; it throws, naming root, and does
  // not wait in a broadcast that root never joins.
  scripted_group other(1, true);
  try {
    gpubench::transports::make_and_broadcast(other, data, 0, [] { FAIL() << "made off root"; });
    FAIL() << "member did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(other.broadcasts, 0);
}

#include "core/cluster_schedule.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/cluster.hpp"

namespace gpubench::core {
namespace {

// Every pair once, no node twice in a round, N-1 rounds (even) or N (odd).
void check_schedule(std::size_t n) {
  const auto rounds = round_robin(n);
  ASSERT_EQ(rounds.size(), n % 2 == 0 ? n - 1 : n) << n << " nodes";
  std::vector<int> seen(pair_count(n), 0);
  for (const auto& round : rounds) {
    EXPECT_EQ(round.size(), n / 2) << n << " nodes";
    std::vector<char> busy(n, 0);
    for (const auto& p : round) {
      ASSERT_LT(p.a, p.b);
      ASSERT_LT(p.b, n);
      ASSERT_FALSE(busy[p.a]) << "node " << p.a << " twice in a round of " << n;
      ASSERT_FALSE(busy[p.b]) << "node " << p.b << " twice in a round of " << n;
      busy[p.a] = busy[p.b] = 1;
      ++seen[pair_index(p.a, p.b, n)];
    }
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    ASSERT_EQ(seen[i], 1) << "pair " << i << " of " << n << " nodes";
}

TEST(ClusterSchedule, FewerThanTwoNodesHaveNoRounds) {
  EXPECT_TRUE(round_robin(0).empty());
  EXPECT_TRUE(round_robin(1).empty());
}

TEST(ClusterSchedule, TwoAndThreeNodes) {
  const auto two = round_robin(2);
  ASSERT_EQ(two.size(), 1u);
  ASSERT_EQ(two[0].size(), 1u);
  EXPECT_EQ(two[0][0].a, 0u);
  EXPECT_EQ(two[0][0].b, 1u);
  check_schedule(3);
}

TEST(ClusterSchedule, EveryPairOnceUpToAThousandNodes) {
  for (std::size_t n = 2; n <= 64; ++n)
    check_schedule(n);
  for (std::size_t n : {127u, 128u, 999u, 1000u})
    check_schedule(n);
}

TEST(ClusterSchedule, ConcurrencySplitsRoundsKeepingEveryPair) {
  const auto rounds = round_robin(9);
  const auto subs = split_rounds(rounds, 3);
  // 9 rounds of 4 pairs, 3 at once: 2 sub-rounds per round.
  ASSERT_EQ(subs.size(), 18u);
  std::size_t pairs = 0;
  for (const auto& s : subs) {
    EXPECT_LE(s.size(), 3u);
    EXPECT_FALSE(s.empty());
    pairs += s.size();
  }
  EXPECT_EQ(pairs, pair_count(9));
  EXPECT_EQ(split_rounds(rounds, 0).size(), rounds.size());
  EXPECT_EQ(split_rounds(rounds, 1).size(), pair_count(9));
}

}  // namespace
}  // namespace gpubench::core

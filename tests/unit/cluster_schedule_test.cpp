#include "core/cluster_schedule.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/cluster.hpp"

namespace gpubench::core {
namespace {

// Every pair once, no node twice in a round, N-1 rounds (even) or N (odd): "" or what is wrong.
// Plain checks in the loops (a gtest assertion per pair would cost most of the test's time).
std::string schedule_error(std::size_t n) {
  const auto rounds = round_robin(n);
  const std::size_t want = n % 2 == 0 ? n - 1 : n;
  if (rounds.size() != want) return std::to_string(rounds.size()) + " rounds";
  std::vector<int> seen(pair_count(n), 0);
  std::vector<std::size_t> busy(n, rounds.size());  // the last round a node was in
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    if (rounds[r].size() != n / 2) return "round " + std::to_string(r) + " is not full";
    for (const auto& p : rounds[r]) {
      if (p.a >= p.b || p.b >= n) return "bad pair in round " + std::to_string(r);
      if (busy[p.a] == r || busy[p.b] == r) return "a node twice in round " + std::to_string(r);
      busy[p.a] = busy[p.b] = r;
      ++seen[pair_index(p.a, p.b, n)];
    }
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i] != 1) return "pair " + std::to_string(i) + " seen " + std::to_string(seen[i]);
  return "";
}

void check_schedule(std::size_t n) {
  EXPECT_EQ(schedule_error(n), "") << n << " nodes";
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

TEST(RandomMatchings, KDisjointMatchingsWithDistinctPartnersFromTheSeed) {
  for (std::size_t n : {6u, 7u, 64u, 4096u}) {
    const auto rounds = random_matchings(n, 4, 42);
    ASSERT_EQ(rounds.size(), 4u);
    std::set<std::pair<std::size_t, std::size_t>> seen;
    for (const auto& round : rounds) {
      std::set<std::size_t> busy;
      for (const auto& p : round) {
        ASSERT_LT(p.a, p.b);
        ASSERT_LT(p.b, n);
        EXPECT_TRUE(busy.insert(p.a).second && busy.insert(p.b).second) << "one pair per node";
        EXPECT_TRUE(seen.insert({p.a, p.b}).second) << "a partner twice";
      }
      EXPECT_EQ(round.size(), n / 2);
    }
    const auto again = random_matchings(n, 4, 42);
    EXPECT_EQ(again[3][0].a, rounds[3][0].a);
    EXPECT_EQ(again[3][0].b, rounds[3][0].b);
  }
  EXPECT_EQ(random_matchings(5, 9, 1).size(), 5u) << "capped at the rounds of all pairs";
}

}  // namespace
}  // namespace gpubench::core

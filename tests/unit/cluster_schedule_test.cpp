#include "core/cluster_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

// The rounds of a sparse plan: "" or what is wrong (a node twice in a round, a pair twice, a
// pair out of range); `partners` receives each node's partner count.
std::string matching_error(const std::vector<pair_round>& rounds, std::size_t n,
                           std::vector<std::size_t>& partners) {
  std::set<std::pair<std::size_t, std::size_t>> seen;
  partners.assign(n, 0);
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    std::set<std::size_t> busy;
    for (const auto& p : rounds[r]) {
      if (p.a >= p.b || p.b >= n) return "bad pair in round " + std::to_string(r);
      if (!busy.insert(p.a).second || !busy.insert(p.b).second)
        return "a node twice in round " + std::to_string(r);
      if (!seen.insert({p.a, p.b}).second) return "a pair twice, in round " + std::to_string(r);
      ++partners[p.a];
      ++partners[p.b];
    }
  }
  return "";
}

std::vector<std::string> leaves_of(std::size_t n, std::size_t per_leaf) {
  std::vector<std::string> leaves;
  for (std::size_t i = 0; i < n; ++i)
    leaves.push_back("leaf" + std::to_string(i / per_leaf));
  return leaves;
}

// 4,096 nodes on 128 leaves of 32, K = 4: two rounds within leaves, two across, every node
// against 4 distinct partners, the whole cluster paired in every round.
TEST(RandomMatchings, WithLeavesHalfTheRoundsWithinLeavesHalfAcross) {
  const std::size_t n = 4096;
  const auto leaves = leaves_of(n, 32);
  const auto rounds = random_matchings(n, 4, 7, leaves);
  ASSERT_EQ(rounds.size(), 4u);
  std::vector<std::size_t> partners;
  ASSERT_EQ(matching_error(rounds, n, partners), "");
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(rounds[r].size(), n / 2) << "round " << r;
    std::size_t within = 0;
    for (const auto& p : rounds[r])
      within += leaves[p.a] == leaves[p.b];
    EXPECT_EQ(within, r < 2 ? n / 2 : 0u) << "round " << r;
  }
  EXPECT_EQ(*std::min_element(partners.begin(), partners.end()), 4u);
  // K = 3: two within, one across.
  const auto three = random_matchings(n, 3, 7, leaves);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(leaves[three[1][5].a], leaves[three[1][5].b]);
  EXPECT_NE(leaves[three[2][5].a], leaves[three[2][5].b]);
}

TEST(RandomMatchings, WithLeavesTheSameSeedPlansTheSameRounds) {
  const auto leaves = leaves_of(300, 20);
  const auto a = random_matchings(300, 4, 11, leaves);
  const auto b = random_matchings(300, 4, 11, leaves);
  const auto other = random_matchings(300, 4, 12, leaves);
  bool same = true, differs = false;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t i = 0; i < a[r].size(); ++i) {
      same = same && a[r][i].a == b[r][i].a && a[r][i].b == b[r][i].b;
      differs = differs || i >= other[r].size() || a[r][i].a != other[r][i].a ||
                a[r][i].b != other[r][i].b;
    }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differs) << "another seed, another draw";
}

// Odd leaves, a leaf of one node, nodes the shape does not place: a node left over within its
// leaf meets another leaf's; still no pair twice and no node twice in a round.
TEST(RandomMatchings, UnevenLeavesStillGiveDistinctPartners) {
  std::vector<std::string> leaves;
  for (const auto& [name, count] : std::vector<std::pair<std::string, std::size_t>>{
           {"a", 5}, {"b", 7}, {"c", 1}, {"d", 9}, {"", 2}})
    leaves.insert(leaves.end(), count, name);
  const std::size_t n = leaves.size();  // 24
  const auto rounds = random_matchings(n, 4, 3, leaves);
  std::vector<std::size_t> partners;
  ASSERT_EQ(matching_error(rounds, n, partners), "");
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_GE(partners[i], 3u) << "node " << i << " (" << leaves[i] << ")";
  for (std::size_t r = 2; r < 4; ++r)
    for (const auto& p : rounds[r])
      EXPECT_TRUE(leaves[p.a] != leaves[p.b] || leaves[p.a].empty()) << "round " << r;
  // One leaf: the plain draw.
  const auto plain = random_matchings(n, 4, 3);
  const auto one_leaf = random_matchings(n, 4, 3, std::vector<std::string>(n, "x"));
  EXPECT_EQ(plain[2][3].a, one_leaf[2][3].a);
  EXPECT_EQ(plain[2][3].b, one_leaf[2][3].b);
}

// A leaf of more than half the nodes cannot be paired across in full: its nodes sit out of the
// across rounds rather than meet a neighbour of their own leaf there.
TEST(RandomMatchings, ALeafOfMostNodesSitsOutRatherThanPairWithinInAcrossRounds) {
  std::vector<std::string> leaves(8, "big");
  leaves.insert(leaves.end(), 2, "small");
  const auto rounds = random_matchings(10, 2, 5, leaves);
  std::vector<std::size_t> partners;
  ASSERT_EQ(matching_error(rounds, 10, partners), "");
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(rounds[1].size(), 2u);
  for (const auto& p : rounds[1])
    EXPECT_NE(leaves[p.a], leaves[p.b]);
}

}  // namespace
}  // namespace gpubench::core

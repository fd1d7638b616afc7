#include "cluster/sweep_plan.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/cluster.hpp"
#include "core/errors.hpp"

namespace gpubench::cluster {
namespace {

std::string pairs_error(const std::string& text) {
  try {
    parse_pairs(text);
  } catch (const core::usage_error& e) {
    return e.what();
  }
  return "";
}

TEST(SweepPlan, ParsesThePairsOption) {
  EXPECT_EQ(parse_pairs("all").method, pairs_method::all);
  const auto m = parse_pairs("matchings");
  EXPECT_EQ(m.method, pairs_method::matchings);
  EXPECT_EQ(m.k, default_matchings);
  EXPECT_EQ(parse_pairs("matchings:3").k, 3u);
  for (const char* bad :
       {"", "some", "matching", "matchings:", "matchings:0", "matchings:1", "matchings:x",
        "matchings:3x", "matchings:-2", "matchings:99999", "matchings3", "all:2"})
    EXPECT_NE(pairs_error(bad).find("--pairs"), std::string::npos) << bad;
  EXPECT_NE(pairs_error("matchings:1").find("K must be 2 to"), std::string::npos);
}

TEST(SweepPlan, DefaultIsAllPairsWhileTheyCostNoMoreRounds) {
  EXPECT_EQ(all_pairs_rounds(8), 7u);
  EXPECT_EQ(all_pairs_rounds(9), 9u);
  // K = 4: matchings cost 4 rounds + 3 steps of localisation; all pairs N-1 (N odd: N).
  EXPECT_TRUE(all_pairs_by_default(2, 4));
  EXPECT_TRUE(all_pairs_by_default(7, 4));
  EXPECT_TRUE(all_pairs_by_default(8, 4));
  EXPECT_FALSE(all_pairs_by_default(9, 4));
  EXPECT_FALSE(all_pairs_by_default(4096, 4));
  EXPECT_TRUE(all_pairs_by_default(6, 2));
  EXPECT_FALSE(all_pairs_by_default(7, 2));
}

TEST(SweepPlan, AllPairsAreDenseAndSplitIntoSubRounds) {
  const auto s = plan_sweep(6, {}, 2, {}, 99);
  EXPECT_EQ(s.plan.method, "all");
  EXPECT_TRUE(s.pair_list.empty());
  EXPECT_EQ(s.rounds, 5u);
  EXPECT_EQ(s.steps.size(), 10u);  // 3 pairs a round, at most 2 at once
  EXPECT_EQ(s.round_of_step[0], 0u);
  EXPECT_EQ(s.round_of_step[1], 0u);
  EXPECT_EQ(s.round_of_step[9], 4u);
  std::size_t pairs = 0;
  for (const auto& step : s.steps)
    pairs += step.size();
  EXPECT_EQ(pairs, 15u);
}

TEST(SweepPlan, MatchingsListTheirPairsWithTheirSubRound) {
  pairs_choice c = parse_pairs("matchings:3");
  const auto s = plan_sweep(8, c, 3, {}, 1234);
  EXPECT_EQ(s.plan.method, "matchings");
  EXPECT_EQ(s.plan.matchings, 3u);
  EXPECT_EQ(s.plan.seed, 1234u);  // no --pair-seed: the fresh one, recorded
  EXPECT_EQ(s.rounds, 3u);
  ASSERT_EQ(s.pair_list.size(), 12u);  // 3 matchings of 4 pairs
  EXPECT_EQ(s.steps.size(), 6u);       // each round split 3 + 1
  std::map<std::size_t, std::set<std::size_t>> partners;
  for (const auto& p : s.pair_list) {
    ASSERT_LT(p.a, p.b);
    ASSERT_LT(p.round, s.steps.size());
    bool in_step = false;
    for (const auto& q : s.steps[p.round])
      in_step = in_step || (q.a == p.a && q.b == p.b);
    EXPECT_TRUE(in_step) << p.a << "-" << p.b << " not in sub-round " << p.round;
    partners[p.a].insert(p.b);
    partners[p.b].insert(p.a);
  }
  for (std::size_t n = 0; n < 8; ++n)
    EXPECT_EQ(partners[n].size(), 3u) << "node " << n;
  // The file's slots are the list: every listed pair found, in order.
  core::cluster_section section;
  section.nodes.resize(8);
  section.pair_list = s.pair_list;
  const core::slot_lookup slots(section);
  for (std::size_t i = 0; i < s.pair_list.size(); ++i)
    EXPECT_EQ(slots.find(s.pair_list[i].b, s.pair_list[i].a), i);
}

TEST(SweepPlan, TheSeedPlansTheSameRoundsAgain) {
  pairs_choice c = parse_pairs("matchings:4");
  c.seed = 77;
  const auto one = plan_sweep(40, c, 0, {}, 1);
  const auto two = plan_sweep(40, c, 0, {}, 2);  // the fresh seed is not used
  EXPECT_EQ(one.plan.seed, 77u);
  ASSERT_EQ(one.pair_list.size(), two.pair_list.size());
  for (std::size_t i = 0; i < one.pair_list.size(); ++i) {
    EXPECT_EQ(one.pair_list[i].a, two.pair_list[i].a);
    EXPECT_EQ(one.pair_list[i].b, two.pair_list[i].b);
  }
  c.seed = 78;
  const auto other = plan_sweep(40, c, 0, {}, 1);
  bool differs = false;
  for (std::size_t i = 0; i < one.pair_list.size(); ++i)
    differs = differs || one.pair_list[i].a != other.pair_list[i].a ||
              one.pair_list[i].b != other.pair_list[i].b;
  EXPECT_TRUE(differs);
}

TEST(SweepPlan, TheDefaultTurnsToMatchingsAboveEightNodes) {
  EXPECT_EQ(plan_sweep(8, {}, 0, {}, 5).plan.method, "all");
  const auto s = plan_sweep(9, {}, 0, {}, 5);
  EXPECT_EQ(s.plan.method, "matchings");
  EXPECT_EQ(s.plan.matchings, default_matchings);
  EXPECT_EQ(s.rounds, default_matchings);
  EXPECT_EQ(plan_sweep(12, parse_pairs("all"), 0, {}, 5).rounds, 11u);
}

TEST(SweepPlan, DrawnSeedsFitEveryJsonReader) {
  for (int i = 0; i < 20; ++i)
    EXPECT_LT(draw_pair_seed(), std::uint64_t{1} << 53);
  EXPECT_NE(draw_pair_seed(), draw_pair_seed());
}

}  // namespace
}  // namespace gpubench::cluster

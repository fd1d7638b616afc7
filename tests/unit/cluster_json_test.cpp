#include <gtest/gtest.h>

#include <set>

#include "core/cluster.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"

namespace gpubench::core {
namespace {

TEST(PairIndex, CoversEveryPairOnceInRowMajorOrder) {
  for (std::size_t n : {2u, 3u, 7u, 64u}) {
    std::set<std::size_t> seen;
    std::size_t expected = 0;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        EXPECT_EQ(pair_index(a, b, n), expected);
        EXPECT_EQ(pair_index(b, a, n), expected);
        seen.insert(expected++);
      }
    EXPECT_EQ(seen.size(), pair_count(n));
  }
  EXPECT_THROW(pair_index(1, 1, 4), std::out_of_range);
  EXPECT_THROW(pair_index(0, 4, 4), std::out_of_range);
}

result_file cluster_file() {
  result_file f;
  f.run.status = run_status::complete;
  cluster_section c;
  for (int i = 0; i < 3; ++i) {
    cluster_node n;
    n.name = "n" + std::to_string(i);
    n.ranks = {i};
    n.system = {{"host", n.name}};
    c.nodes.push_back(n);
  }
  c.nodes[2].status = node_status::stalled;
  c.nodes[2].reason = "no answer in round 2";
  pair_measurement m;
  m.benchmark = "net.tcp.latency";
  m.bytes = 8;
  m.metric = "latency";
  m.unit = "us";
  m.better = "lower";
  m.median = {10.0, 11.0, std::nullopt};
  m.p99 = {12.0, 13.0, std::nullopt};
  m.count = {100, 100, 0};
  c.pairs.push_back(m);
  c.rounds = 3;
  c.failures.push_back({1, 2, "net.tcp.latency", "peer stopped answering"});
  f.cluster = c;
  return f;
}

TEST(ClusterJson, RoundTrips) {
  const auto back = result_from_json(to_json(cluster_file()), "t");
  ASSERT_TRUE(back.cluster);
  EXPECT_EQ(back.cluster->nodes.size(), 3u);
  EXPECT_EQ(back.cluster->nodes[2].status, node_status::stalled);
  EXPECT_EQ(back.cluster->pairs[0].median[1], 11.0);
  EXPECT_FALSE(back.cluster->pairs[0].median[2]);
  EXPECT_EQ(back.cluster->failures[0].b, 2u);
  EXPECT_FALSE(result_from_json(to_json(result_file{}), "t").cluster);
}

TEST(ClusterJson, RejectsASummaryArrayOfTheWrongLength) {
  auto j = to_json(cluster_file());
  j["cluster"]["pairs"][0]["median"].push_back(1.0);
  try {
    result_from_json(j, "f.json");
    FAIL() << "accepted";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cluster.pairs[0].median"), std::string::npos) << e.what();
  }
}

TEST(ClusterJson, RejectsANegativeMedian) {
  auto j = to_json(cluster_file());
  j["cluster"]["pairs"][0]["median"][0] = -1.0;
  EXPECT_THROW(result_from_json(j, "f.json"), input_error);
}

TEST(PairSlots, ADenseSectionsSlotIsThePairIndexBothWays) {
  for (std::size_t n : {2u, 3u, 7u, 64u, 1000u}) {
    cluster_section c;
    c.nodes.resize(n);
    ASSERT_EQ(slot_count(c), pair_count(n));
    const slot_lookup lookup(c);
    for (std::size_t slot = 0; slot<slot_count(c); slot += n> 64 ? 997 : 1) {
      const auto p = slot_pair(c, slot);
      ASSERT_LT(p.a, p.b);
      ASSERT_EQ(pair_index(p.a, p.b, n), slot) << n << " nodes";
      ASSERT_EQ(lookup.find(p.b, p.a), slot);
    }
    EXPECT_EQ(slot_pair(c, slot_count(c) - 1).a, n - 2);
    EXPECT_THROW(slot_pair(c, slot_count(c)), std::out_of_range);
  }
}

TEST(PairSlots, ASparseSectionHasItsListedPairsOnly) {
  cluster_section c;
  c.nodes.resize(6);
  c.pair_list = {{0, 3, 0}, {1, 4, 0}, {2, 5, 0}, {0, 1, 1}};
  const slot_lookup lookup(c);
  EXPECT_EQ(slot_count(c), 4u);
  EXPECT_EQ(lookup.find(4, 1), 1u);
  EXPECT_EQ(lookup.find(0, 1), 3u);
  EXPECT_FALSE(lookup.find(0, 2)) << "not measured";
  EXPECT_FALSE(lookup.find(0, 6)) << "no such node";
  EXPECT_EQ(slot_pair(c, 3).round, 1u);
}

TEST(ClusterJson, ASparseSweepRoundTripsWithItsPlanAndLeaves) {
  auto f = cluster_file();
  auto& c = *f.cluster;
  c.plan = {"matchings", 4, 0xdeadbeefcafeULL};
  c.pair_list = {{0, 1, 0}, {0, 2, 1}, {1, 2, 2}};
  c.leaves = {"leaf-a", "leaf-a", ""};
  const auto j = to_json(f);
  EXPECT_EQ(j["cluster"]["pair_list"][1], nlohmann::json::array({0, 2, 1}));
  const auto back = result_from_json(j, "t");
  EXPECT_EQ(back.cluster->plan.method, "matchings");
  EXPECT_EQ(back.cluster->plan.matchings, 4u);
  EXPECT_EQ(back.cluster->plan.seed, 0xdeadbeefcafeULL);
  ASSERT_EQ(back.cluster->pair_list.size(), 3u);
  EXPECT_EQ(back.cluster->pair_list[2].round, 2u);
  EXPECT_EQ(back.cluster->leaves[1], "leaf-a");
  EXPECT_FALSE(to_json(cluster_file())["cluster"].contains("pair_list")) << "dense: no list";
}

TEST(ClusterJson, RejectsAListedPairThatIsNoPairOfTheNodes) {
  auto f = cluster_file();
  f.cluster->pair_list = {{0, 1, 0}, {0, 2, 1}, {1, 2, 2}};
  auto j = to_json(f);
  j["cluster"]["pair_list"][2] = nlohmann::json::array({2, 1, 0});
  try {
    result_from_json(j, "f.json");
    FAIL() << "accepted";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cluster.pair_list[2]"), std::string::npos) << e.what();
  }
  j["cluster"]["pair_list"] = nlohmann::json::array({nlohmann::json::array({0, 1, 0})});
  EXPECT_THROW(result_from_json(j, "f.json"), input_error) << "3 summaries for 1 listed pair";
}

}  // namespace
}  // namespace gpubench::core

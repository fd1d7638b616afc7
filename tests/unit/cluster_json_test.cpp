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

}  // namespace
}  // namespace gpubench::core

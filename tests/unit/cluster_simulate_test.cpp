// The simulation of the method (cluster/simulate.hpp): what a sweep's file holds, that one seed
// gives one sweep, and that its scoring counts what the verdict found against what was planted.
// Issue 35's bar itself is the CTest cluster.simulation (tests/sim/).
#include <gtest/gtest.h>

#include <set>

#include "cluster/simulate.hpp"
#include "core/cluster.hpp"

namespace gpubench::cluster {
namespace {

sim_config small(double noise) {
  sim_config c;
  c.nodes = 256;
  c.leaf_size = 16;
  c.noise = noise;
  return c;
}

TEST(ClusterSimulate, ASweepsFileIsWhatTheLaunchWrites) {
  const auto sweep = simulate(small(0.02), 3);
  ASSERT_TRUE(sweep.file.cluster);
  const auto& c = *sweep.file.cluster;
  EXPECT_EQ(c.nodes.size(), 256u);
  EXPECT_EQ(c.plan.method, "matchings");
  EXPECT_EQ(c.plan.matchings, 4u);
  EXPECT_EQ(c.rounds, 4u);
  EXPECT_EQ(c.pair_list.size(), 4u * 128);
  ASSERT_EQ(c.leaves.size(), 256u);
  EXPECT_EQ(c.leaves[17], "leaf1");
  ASSERT_EQ(c.pairs.size(), 2u);  // bandwidth both ways, each its own measurement
  EXPECT_EQ(c.pairs[0].params.at("direction"), "to_peer");
  EXPECT_EQ(c.pairs[1].params.at("direction"), "from_peer");
  for (const auto& m : c.pairs) {
    ASSERT_EQ(m.median.size(), core::slot_count(c));
    for (const auto& x : m.median)
      ASSERT_TRUE(x && *x > 0);
  }
  ASSERT_TRUE(c.confirmation);
  EXPECT_TRUE(c.confirmation->complete);
  EXPECT_FALSE(c.confirmation->candidates.empty()) << "8 slow nodes, 8 slow links planted";
  std::size_t second = 0;
  for (const auto& p : c.confirmation->pairs)
    second += p.figures.size();
  EXPECT_EQ(sweep.figures, 2 * c.pair_list.size() + second);
  EXPECT_GT(sweep.second_steps, 0u);
}

TEST(ClusterSimulate, OneSeedIsOneSweep) {
  const auto a = simulate(small(0.02), 9), b = simulate(small(0.02), 9);
  const auto other = simulate(small(0.02), 10);
  EXPECT_EQ(a.file.cluster->pairs[0].median, b.file.cluster->pairs[0].median);
  EXPECT_NE(a.file.cluster->pairs[0].median, other.file.cluster->pairs[0].median);
  const auto x = score(a), y = score(b);
  EXPECT_EQ(x.named_nodes, y.named_nodes);
  EXPECT_EQ(x.named_links, y.named_links);
  EXPECT_EQ(x.rounds, y.rounds);
}

// No fault planted: nothing named, and a second look with nothing to do costs no round.
TEST(ClusterSimulate, AHealthyFabricNamesNothing) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto config = small(0.02);
    config.faults = sim_faults{};
    config.faults.slow_nodes = config.faults.slow_links = config.faults.slow_uplinks = 0;
    config.faults.flapping = 0;
    const auto o = score(simulate(config, seed));
    EXPECT_EQ(o.named_nodes + o.named_links + o.named_uplinks, 0u) << "seed " << seed;
    EXPECT_EQ(o.healthy_nodes_named, 0u);
    EXPECT_EQ(o.slow_nodes + o.slow_links + o.slow_uplinks, 0u);
  }
}

// Faults far out of the noise are all found and scored as found, each node in its way; a
// verdict that named nothing would fail every count here.
TEST(ClusterSimulate, ScoringCountsWhatWasFoundAgainstWhatWasPlanted) {
  auto config = small(0.005);
  config.faults.node_deficit_min = 0.3;
  config.faults.flapping = 0;
  const auto o = score(simulate(config, 4));
  EXPECT_EQ(o.slow_nodes, config.faults.slow_nodes);
  EXPECT_EQ(o.slow_nodes_found, o.slow_nodes);
  EXPECT_EQ(o.nodes_way_right, o.slow_nodes);
  EXPECT_EQ(o.slow_links, config.faults.slow_links);
  EXPECT_EQ(o.slow_links_found, o.slow_links);
  EXPECT_EQ(o.slow_uplinks, 1u);
  EXPECT_EQ(o.slow_uplinks_found, 1u);
  EXPECT_EQ(o.named_nodes, o.slow_nodes);
  EXPECT_EQ(o.healthy_nodes_named + o.wrong_links + o.wrong_uplinks, 0u);
  EXPECT_LE(o.rounds, 10u);
  EXPECT_EQ(o.rounds, 4 + o.second_steps);
}

}  // namespace
}  // namespace gpubench::cluster

// Cluster mode's pair cases: each pair's bandwidth both ways, each way its own case (TCP to_peer
// and from_peer, RDMA write and read), never the two summed (bidir); the second look's one way;
// and a pair's figures filed at its slot, also in a sparse sweep (--pairs matchings).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks/register_all.hpp"
#include "core/cluster.hpp"
#include "core/registry.hpp"
#include "core/run_context.hpp"

#if GPUBENCH_TEST_MPI
#include "cluster/pair_roles.hpp"

namespace gpubench::cluster {
namespace {

using json = nlohmann::json;

TEST(PairWays, BandwidthBothWaysEachItsOwnCase) {
  const json tcp_to = {{"streams", 1}, {"direction", "to_peer"}};
  const json tcp_from = {{"streams", 1}, {"direction", "from_peer"}};
  const json tcp_both = {{"streams", 1}, {"direction", "bidir"}};
  EXPECT_TRUE(pair_keeps(tcp_to, ""));
  EXPECT_TRUE(pair_keeps(tcp_from, ""));
  EXPECT_FALSE(pair_keeps(tcp_both, ""));
  // The second look's one way.
  EXPECT_TRUE(pair_keeps(tcp_from, "from_peer"));
  EXPECT_FALSE(pair_keeps(tcp_to, "from_peer"));
  EXPECT_FALSE(pair_keeps(tcp_from, "to_peer"));
  // RDMA: write moves b -> a, read a -> b; send and CUDA memory are not pair cases.
  const json write = {{"op", "write"}, {"memory", "host"}, {"direction", "to_peer"}};
  const json read = {{"op", "read"}, {"memory", "host"}, {"direction", "from_peer"}};
  const json send = {{"op", "send"}, {"memory", "host"}, {"direction", "to_peer"}};
  const json cuda = {{"op", "write"}, {"memory", "cuda"}, {"direction", "to_peer"}};
  EXPECT_TRUE(pair_keeps(write, ""));
  EXPECT_TRUE(pair_keeps(read, ""));
  EXPECT_TRUE(pair_keeps(read, "from_peer"));
  EXPECT_FALSE(pair_keeps(write, "from_peer"));
  EXPECT_FALSE(pair_keeps(send, ""));
  EXPECT_FALSE(pair_keeps(cuda, ""));
  // Latency has no way: measured in the sweep, not when one way is asked for.
  EXPECT_TRUE(pair_keeps(json{{"op", "write"}, {"memory", "host"}}, ""));
  EXPECT_FALSE(pair_keeps(json{{"op", "read"}, {"memory", "host"}}, ""));
  EXPECT_TRUE(pair_keeps(json::object(), ""));
  EXPECT_FALSE(pair_keeps(json::object(), "to_peer"));
}

TEST(PairWays, TheTcpBandwidthVariantHasBothWays) {
  core::registry r;
  benchmarks::register_all(r);
  const auto defs = r.select("network", "^net\\.tcp\\.bandwidth$");
  ASSERT_EQ(defs.size(), 1u);
  const auto* def = defs.front();
  core::run_context ctx;
  ctx.peer = "198.18.0.2:18515";
  ctx.options["streams"] = "1";
  std::vector<std::string> ways;
  for (const auto& p : pair_variant(*def).cases(ctx))
    ways.push_back(p.at("direction").get<std::string>());
  EXPECT_EQ(ways, (std::vector<std::string>{"to_peer", "from_peer"}));
  ways.clear();
  for (const auto& p : pair_variant(*def, "to_peer").cases(ctx))
    ways.push_back(p.at("direction").get<std::string>());
  EXPECT_EQ(ways, (std::vector<std::string>{"to_peer"}));
}

json one_case(const char* direction, double median) {
  return json::array(
      {{{"benchmark", "net.tcp.bandwidth"},
        {"params", {{"streams", 1}, {"direction", direction}}},
        {"status", "ok"},
        {"reason", ""},
        {"metric", "bandwidth"},
        {"unit", "GB/s"},
        {"better", "higher"},
        {"points",
         json::array({{{"bytes", 1048576}, {"median", median}, {"p99", median}, {"count", 5}}})}}});
}

TEST(PairWays, FiguresGoToThePairsSlot) {
  core::cluster_section c;
  c.nodes.resize(6);
  c.pair_list = {{0, 3, 0}, {2, 5, 0}, {1, 4, 1}};
  merge_pair(c, 2, 5, one_case("to_peer", 0.5));
  merge_pair(c, 1, 4, one_case("from_peer", 0.25));
  merge_pair(c, 2, 5, one_case("from_peer", 0.75));
  ASSERT_EQ(c.pairs.size(), 2u);  // one measurement per way
  const auto& to = c.pairs[0];
  const auto& from = c.pairs[1];
  EXPECT_EQ(to.params.at("direction"), "to_peer");
  ASSERT_EQ(to.median.size(), 3u);  // one entry per listed pair, not per pair of 6 nodes
  EXPECT_EQ(to.median[1], 0.5);
  EXPECT_FALSE(to.median[0].has_value());
  EXPECT_EQ(from.median[2], 0.25);
  EXPECT_EQ(from.median[1], 0.75);
  EXPECT_THROW(merge_pair(c, 0, 1, one_case("to_peer", 1)), std::out_of_range);
  // Dense: the pair's index among all pairs.
  core::cluster_section dense;
  dense.nodes.resize(4);
  merge_pair(dense, 1, 3, one_case("to_peer", 2));
  ASSERT_EQ(dense.pairs[0].median.size(), 6u);
  EXPECT_EQ(dense.pairs[0].median[core::pair_index(1, 3, 4)], 2.0);
}

}  // namespace
}  // namespace gpubench::cluster
#endif

#include <gtest/gtest.h>

#include <random>

#include "cluster/suspects.hpp"
#include "cluster/verdict.hpp"
#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"

namespace gpubench::cluster {
namespace {

using core::cluster_section;
using core::pair_index;

// A synthetic cluster: n nodes named n0..; TCP bandwidth (1.0 GB/s) and latency (10 us) over
// every pair, each node's host copy at 20 GB/s; `noise` is the relative half-width of uniform
// noise on every figure.
struct synthetic {
  explicit synthetic(std::size_t nodes, double noise_ = 0, unsigned seed_ = 1)
      : n(nodes), noise(noise_), seed(seed_) {}

  std::size_t n;
  double noise;
  unsigned seed;
  std::vector<std::size_t> slow_nodes;                          // every pair at 1/4 bandwidth
  std::vector<std::pair<std::size_t, std::size_t>> slow_links;  // one pair at 1/4 bandwidth
  std::vector<std::size_t> slow_local;                          // host copy at 1/4

  core::result_file file() const {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
    cluster_section c;
    for (std::size_t i = 0; i < n; ++i) {
      core::cluster_node node;
      node.name = "n" + std::to_string(i);
      node.ranks = {static_cast<int>(i)};
      core::case_result r;
      r.benchmark = "memory.host.copy";
      r.metric = "bandwidth";
      r.unit = "GB/s";
      r.better = "higher";
      core::point_result p;
      p.bytes = 1 << 26;
      p.stats.median = 20.0 * jitter(rng) * (has(slow_local, i) ? 0.25 : 1.0);
      r.points.push_back(p);
      node.results.push_back(r);
      c.nodes.push_back(node);
    }
    c.pairs.push_back(measurement("net.tcp.bandwidth", "GB/s", "higher", 1.0, rng, jitter));
    c.pairs.push_back(measurement("net.tcp.latency", "us", "lower", 10.0, rng, jitter));
    core::result_file f;
    f.cluster = c;
    return f;
  }

  static bool has(const std::vector<std::size_t>& v, std::size_t i) {
    return std::find(v.begin(), v.end(), i) != v.end();
  }
  bool slow_pair(std::size_t a, std::size_t b) const {
    if (has(slow_nodes, a) || has(slow_nodes, b)) return true;
    for (auto [x, y] : slow_links)
      if ((x == a && y == b) || (x == b && y == a)) return true;
    return false;
  }

  core::pair_measurement measurement(const std::string& id, const std::string& unit,
                                     const std::string& better, double base, std::mt19937& rng,
                                     std::uniform_real_distribution<double>& jitter) const {
    core::pair_measurement m;
    m.benchmark = id;
    m.unit = unit;
    m.better = better;
    m.metric = better == "higher" ? "bandwidth" : "latency";
    m.bytes = better == "higher" ? 1 << 20 : 8;
    m.median.resize(core::pair_count(n));
    m.p99.resize(core::pair_count(n));
    m.count.assign(core::pair_count(n), 100);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        double v = base * jitter(rng);
        if (slow_pair(a, b)) v = better == "higher" ? v / 4 : v * 4;
        m.median[pair_index(a, b, n)] = v;
      }
    return m;
  }
};

std::vector<std::string> names(const std::vector<suspect>& s, suspect_kind kind) {
  std::vector<std::string> out;
  for (const auto& x : s)
    if (x.kind == kind) out.push_back(x.peer.empty() ? x.node : x.node + "-" + x.peer);
  return out;
}

using strings = std::vector<std::string>;

TEST(ClusterSuspects, NoneWithoutClusterOrInAUniformCluster) {
  EXPECT_TRUE(find_suspects(core::result_file{}).empty());
  EXPECT_TRUE(find_suspects(synthetic{8}.file()).empty());
}

TEST(ClusterSuspects, NoneInFivePercentNoise) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto s = find_suspects(synthetic{16, 0.05, seed}.file());
    EXPECT_TRUE(s.empty()) << "seed " << seed << ": " << s.front().evidence;
  }
}

TEST(ClusterSuspects, OneSlowNodeIsThatNodeOnly) {
  synthetic c{8, 0.03};
  c.slow_nodes = {3};
  const auto s = find_suspects(c.file());
  EXPECT_EQ(names(s, suspect_kind::node), strings{"n3"});
  EXPECT_TRUE(names(s, suspect_kind::link).empty());
  ASSERT_FALSE(s.empty());
  // The strongest finding names the figure: latency at 4x is further out than bandwidth at 1/4.
  EXPECT_EQ(s[0].benchmark, "net.tcp.latency");
  EXPECT_NEAR(s[0].value / s[0].cluster_median, 4.0, 0.4);
  EXPECT_NE(s[0].evidence.find("7 of 7 pairs slow"), std::string::npos) << s[0].evidence;
}

TEST(ClusterSuspects, OneSlowLinkIsALinkNotANode) {
  synthetic c{8, 0.03};
  c.slow_links = {{2, 5}};
  const auto s = find_suspects(c.file());
  EXPECT_TRUE(names(s, suspect_kind::node).empty());
  EXPECT_EQ(names(s, suspect_kind::link), strings{"n2-n5"});
}

// Every pair of one round slower (a busy moment, as the first round of a loaded test cluster
// showed, 2.5x latency on all four pairs): a moment, not four slow links. A slow link in another
// round is still named.
TEST(ClusterSuspects, ASlowRoundIsNotSlowLinks) {
  synthetic c{8, 0.03};
  const auto rounds = core::round_robin(8);
  for (const auto& p : rounds[0])
    c.slow_links.emplace_back(p.a, p.b);
  auto f = c.file();
  EXPECT_TRUE(find_suspects(f).empty()) << find_suspects(f).front().evidence;
  const auto lone = rounds[3][1];
  c.slow_links.emplace_back(lone.a, lone.b);
  EXPECT_EQ(names(find_suspects(c.file()), suspect_kind::link),
            strings{"n" + std::to_string(lone.a) + "-n" + std::to_string(lone.b)});
}

// n3 slow in bandwidth to everyone, and one of its pairs slow in latency alone: that pair is
// n3's evidence, not a link of its own (seen on the namespace cluster: n4-n5 at 2.4x).
TEST(ClusterSuspects, ASlowNodesPairIsNotALinkInAnotherMeasurement) {
  synthetic c{8, 0.03};
  c.slow_nodes = {3};
  auto f = c.file();
  auto& latency = f.cluster->pairs[1];
  for (std::size_t b = 0; b < 8; ++b)
    if (b != 3) latency.median[pair_index(3, b, 8)] = 10.0;
  latency.median[pair_index(3, 5, 8)] = 40.0;
  const auto s = find_suspects(f);
  EXPECT_EQ(names(s, suspect_kind::node), strings{"n3"});
  EXPECT_TRUE(names(s, suspect_kind::link).empty()) << s.back().evidence;
}

TEST(ClusterSuspects, SlowNodeAndSlowLinkAtOnceSlowNodeFirst) {
  synthetic c{12, 0.05};
  c.slow_nodes = {7};
  c.slow_links = {{1, 4}};
  const auto s = find_suspects(c.file());
  EXPECT_EQ(names(s, suspect_kind::node), strings{"n7"});
  EXPECT_EQ(names(s, suspect_kind::link), strings{"n1-n4"});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].kind, suspect_kind::node);
}

TEST(ClusterSuspects, SlowNodeByLocalResultsOnly) {
  synthetic c{8, 0.03};
  c.slow_local = {6};
  const auto s = find_suspects(c.file());
  EXPECT_EQ(names(s, suspect_kind::node), strings{"n6"});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].benchmark, "memory.host.copy");
  EXPECT_NE(s[0].evidence.find("cluster median 20"), std::string::npos) << s[0].evidence;
}

TEST(ClusterSuspects, StoppedNodeIsNamedWithItsReasonAndLeftOutOfTheStatistics) {
  synthetic c{6};
  auto f = c.file();
  f.cluster->nodes[4].status = core::node_status::stalled;
  f.cluster->nodes[4].reason = "no answer within 60 s in pair round 3";
  for (auto& m : f.cluster->pairs)
    for (std::size_t b = 0; b < 6; ++b)
      if (b != 4) m.median[pair_index(4, b, 6)] = std::nullopt;
  const auto s = find_suspects(f);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, "n4");
  EXPECT_EQ(s[0].evidence, "n4: stopped answering: no answer within 60 s in pair round 3");
}

TEST(ClusterSuspects, PairsNotMeasuredAreIgnored) {
  synthetic c{8, 0.03};
  c.slow_links = {{0, 1}};
  auto f = c.file();
  f.cluster->pairs[0].median[pair_index(2, 3, 8)] = std::nullopt;
  f.cluster->pairs[1].median[pair_index(0, 1, 8)] = std::nullopt;  // the slow link's latency
  EXPECT_EQ(names(find_suspects(f), suspect_kind::link), strings{"n0-n1"});
}

TEST(ClusterSuspects, TwoNodesGiveNoVerdictThreeNodesDo) {
  synthetic two{2};
  two.slow_links = {{0, 1}};
  two.slow_local = {1};
  EXPECT_TRUE(find_suspects(two.file()).empty());

  synthetic node3{3};
  node3.slow_nodes = {0};
  EXPECT_EQ(names(find_suspects(node3.file()), suspect_kind::node), strings{"n0"});
  synthetic link3{3};
  link3.slow_links = {{1, 2}};
  const auto s = find_suspects(link3.file());
  EXPECT_TRUE(names(s, suspect_kind::node).empty());
  EXPECT_EQ(names(s, suspect_kind::link), strings{"n1-n2"});
}

TEST(ClusterSuspects, FourNodesOneSlowNode) {
  synthetic c{4, 0.02};
  c.slow_nodes = {2};
  const auto s = find_suspects(c.file());
  EXPECT_EQ(names(s, suspect_kind::node), strings{"n2"});
  EXPECT_TRUE(names(s, suspect_kind::link).empty());
}

// How fast is benchmarks/micro/cluster_suspects_micro.cpp's question, not this test's.
TEST(ClusterSuspects, ThousandNodesFindBoth) {
  synthetic c{1000, 0.05};
  c.slow_nodes = {417};
  c.slow_links = {{12, 873}};
  const auto s = find_suspects(c.file());
  EXPECT_EQ(names(s, suspect_kind::node), strings{"n417"});
  EXPECT_EQ(names(s, suspect_kind::link), strings{"n12-n873"});
}

// Rank 0's ending: a failed case is exit 1; a suspect is exit 1 only when asked for.
TEST(ClusterVerdict, ExitCodeFromFailedCasesAndSuspects) {
  synthetic c{8, 0.03};
  testing::internal::CaptureStdout();
  EXPECT_EQ(finish_run(c.file(), true), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "# suspects: none\n");

  c.slow_nodes = {3};
  testing::internal::CaptureStdout();
  EXPECT_EQ(finish_run(c.file(), false), 0);
  EXPECT_EQ(finish_run(c.file(), true), 1);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.rfind("# suspects: 1\n# suspect node n3: net.tcp.latency ", 0), 0u) << out;

  auto failed = synthetic{8, 0.03}.file();
  failed.cluster->nodes[5].results[0].status = core::case_status::failed;
  testing::internal::CaptureStdout();
  EXPECT_EQ(finish_run(failed, false), 1);
  failed = synthetic{8, 0.03}.file();
  failed.results.push_back(core::case_result{});
  failed.results.back().status = core::case_status::failed;
  EXPECT_EQ(finish_run(failed, false), 1);
  testing::internal::GetCapturedStdout();
}

}  // namespace
}  // namespace gpubench::cluster

// Cost of naming suspects in a large cluster: every node's host copy and every pair's TCP
// bandwidth and latency, with one slow node and one slow link planted. A thousand nodes are
// about a million pair figures; the target is well under a second (about 0.1 s here). And a
// sparse sweep of 4,096 nodes (K = 4 matchings, both ways, 128 leaves, a second look), as the
// simulation draws it: the verdict on about 17,000 figures.
#include <benchmark/benchmark.h>

#include <random>

#include "cluster/simulate.hpp"
#include "cluster/suspects.hpp"
#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"

namespace {

using namespace gpubench;

constexpr std::size_t slow_node = 417;
constexpr std::size_t slow_a = 12, slow_b = 873;

core::pair_measurement pair_figures(std::size_t n, const char* id, bool bandwidth,
                                    std::mt19937& rng) {
  std::uniform_real_distribution<double> jitter(0.95, 1.05);
  core::pair_measurement m;
  m.benchmark = id;
  m.unit = bandwidth ? "GB/s" : "us";
  m.better = bandwidth ? "higher" : "lower";
  m.metric = bandwidth ? "bandwidth" : "latency";
  m.bytes = bandwidth ? 1 << 20 : 8;
  m.median.resize(core::pair_count(n));
  m.p99.resize(core::pair_count(n));
  m.count.assign(core::pair_count(n), 100);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      const bool slow = a == slow_node || b == slow_node || (a == slow_a && b == slow_b);
      const double v = (bandwidth ? 1.0 : 10.0) * jitter(rng);
      m.median[core::pair_index(a, b, n)] = slow ? (bandwidth ? v / 4 : v * 4) : v;
    }
  return m;
}

core::result_file synthetic_cluster(std::size_t n) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> jitter(0.95, 1.05);
  core::cluster_section c;
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
    p.stats.median = 20.0 * jitter(rng);
    r.points.push_back(p);
    node.results.push_back(r);
    c.nodes.push_back(node);
  }
  c.pairs.push_back(pair_figures(n, "net.tcp.bandwidth", true, rng));
  c.pairs.push_back(pair_figures(n, "net.tcp.latency", false, rng));
  core::result_file f;
  f.cluster = c;
  return f;
}

void find_suspects(benchmark::State& state) {
  const auto file = synthetic_cluster(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    const auto found = cluster::find_suspects(file);
    if (found.size() != 2) state.SkipWithError("expected the slow node and the slow link");
    benchmark::DoNotOptimize(found);
  }
}
BENCHMARK(find_suspects)->Arg(1000)->Unit(benchmark::kMillisecond);

void find_suspects_sparse(benchmark::State& state) {
  cluster::sim_config config;
  config.nodes = static_cast<std::size_t>(state.range(0));
  const auto sweep = cluster::simulate(config, 1);
  for (auto _ : state) {
    const auto found = cluster::find_suspects(sweep.file);
    if (found.empty()) state.SkipWithError("expected the planted slow nodes");
    benchmark::DoNotOptimize(found);
  }
}
BENCHMARK(find_suspects_sparse)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace

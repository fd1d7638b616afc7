#include "cli/run_cluster.hpp"

#include <charconv>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/units.hpp"

namespace gpubench::cli {

void add_cluster_options(CLI::App& sub, cluster_cli_options& o) {
  sub.add_option("--pair-concurrency", o.pair_concurrency,
                 "Cluster mode: node pairs measured at once at most (default: a whole round)");
  sub.add_option(
         "--pairs", o.pairs,
         fmt::format(
             "Cluster mode: which node pairs, all (every pair: N-1 rounds) or matchings[:K] "
             "(K random disjoint matchings, K partners per node, K default {}); default: "
             "all while its rounds are at most K + {} (the steps the matchings' "
             "localisation adds), i.e. up to {} nodes, matchings above",
             cluster::default_matchings, cluster::localisation_steps,
             cluster::default_matchings + cluster::localisation_steps + 1))
      ->type_name("all|matchings[:K]");
  sub.add_option("--pair-seed", o.pair_seed,
                 "Cluster mode: the seed of the matchings (default: drawn fresh; the file "
                 "records it, so the same rounds can be planned again)")
      ->type_name("N");
  sub.add_option("--topology", o.topology,
                 "Cluster mode: the fabric's shape, a file in Slurm's topology.conf syntax "
                 "(SwitchName=leaf1 Nodes=node[01-16]; SwitchName=spine Switches=leaf[1-2]): "
                 "each node's leaf switch, read by rank 0")
      ->type_name("FILE");
  sub.add_option("--pair-sizes", o.pair_sizes,
                 "Cluster mode: pair message sizes; under 64K latency, else bandwidth")
      ->capture_default_str();
  sub.add_flag("--pair-samples", o.pair_samples,
               "Cluster mode: keep every pair's raw samples (summaries only by default)");
  sub.add_option("--cluster-timeout", o.cluster_timeout,
                 "Cluster mode: seconds a node may stay silent before it is marked stalled "
                 "and left out of the rest of the launch")
      ->capture_default_str();
  sub.add_flag("--fail-on-suspect", o.fail_on_suspect,
               "Cluster mode: exit 1 when a slow node or link is named");
}

cluster::cluster_options cluster_settings(const cluster_cli_options& o, bool plans) {
  if (!(o.cluster_timeout >= 2 && o.cluster_timeout <= 86400))
    throw core::usage_error("--cluster-timeout: expected 2 to 86400 seconds");
  cluster::cluster_options c;
  c.pair_concurrency = o.pair_concurrency;
  c.pair_samples = o.pair_samples;
  c.timeout_s = o.cluster_timeout;
  c.fail_on_suspect = o.fail_on_suspect;
  std::string_view rest = o.pair_sizes;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    try {
      c.pair_sizes.push_back(core::parse_bytes(item));
    } catch (const std::exception& e) {
      throw core::usage_error("--pair-sizes: '" + std::string(item) + "': " + e.what());
    }
    if (c.pair_sizes.back() == 0) throw core::usage_error("--pair-sizes: a size is zero");
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  if (c.pair_sizes.empty()) throw core::usage_error("--pair-sizes: no size given");
  if (!o.pairs.empty()) c.pairs = cluster::parse_pairs(o.pairs);
  if (!o.pair_seed.empty()) {
    if (c.pairs.method == cluster::pairs_method::all)
      throw core::usage_error("--pair-seed: --pairs all measures every pair, nothing is drawn");
    std::uint64_t seed = 0;
    const auto* end = o.pair_seed.data() + o.pair_seed.size();
    const auto [at, err] = std::from_chars(o.pair_seed.data(), end, seed);
    constexpr std::uint64_t most = (std::uint64_t{1} << 53) - 1;  // exact in every JSON reader
    if (err != std::errc() || at != end || seed > most)
      throw core::usage_error(
          fmt::format("--pair-seed '{}': expected a whole number from 0 to {}", o.pair_seed, most));
    c.pairs.seed = seed;
  }
  if (!o.topology.empty() && plans) c.topology = core::topology::read(o.topology);
  return c;
}

}  // namespace gpubench::cli

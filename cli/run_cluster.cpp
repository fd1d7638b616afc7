#include "cli/run_cluster.hpp"

#include "core/errors.hpp"
#include "core/units.hpp"

namespace gpubench::cli {

void add_cluster_options(CLI::App& sub, cluster_cli_options& o) {
  sub.add_option("--pair-concurrency", o.pair_concurrency,
                 "Cluster mode: node pairs measured at once at most (default: a whole round)");
  sub.add_option("--pair-sizes", o.pair_sizes,
                 "Cluster mode: pair message sizes; under 64K latency, else bandwidth")
      ->capture_default_str();
  sub.add_flag("--pair-samples", o.pair_samples,
               "Cluster mode: keep every pair's raw samples (summaries only by default)");
  sub.add_option("--cluster-timeout", o.cluster_timeout,
                 "Cluster mode: seconds a node may stay silent before it is marked stalled")
      ->capture_default_str();
  sub.add_flag("--fail-on-suspect", o.fail_on_suspect,
               "Cluster mode: exit 1 when a slow node or link is named");
}

cluster::cluster_options cluster_settings(const cluster_cli_options& o) {
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
  return c;
}

}  // namespace gpubench::cli

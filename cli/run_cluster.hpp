// The options cluster mode (cluster/, docs/cluster.md) adds to `run`, and their conversion.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cluster/cluster_run.hpp"

namespace gpubench::cli {

struct cluster_cli_options {
  std::size_t pair_concurrency = 0;
  std::string pairs;      // --pairs; empty: the default by node count
  std::string pair_seed;  // --pair-seed; empty: drawn at the launch
  std::string topology;   // --topology FILE
  std::string pair_sizes = "8,1M";
  bool pair_samples = false;
  double cluster_timeout = 60;
  bool fail_on_suspect = false;
};

void add_cluster_options(CLI::App& sub, cluster_cli_options& o);

// Checks the options (usage_error on a bad one, input_error on a bad topology file) and converts
// them. The topology file is read where `plans` (world rank 0, the rank that plans the pairs).
cluster::cluster_options cluster_settings(const cluster_cli_options& o, bool plans = true);

}  // namespace gpubench::cli

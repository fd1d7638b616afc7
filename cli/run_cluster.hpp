// The options cluster mode (cluster/, docs/cluster.md) adds to `run`, and their conversion.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cluster/cluster_run.hpp"

namespace gpubench::cli {

struct cluster_cli_options {
  std::size_t pair_concurrency = 0;
  std::string pair_sizes = "8,1M";
  bool pair_samples = false;
  double cluster_timeout = 60;
  bool fail_on_suspect = false;
};

void add_cluster_options(CLI::App& sub, cluster_cli_options& o);

// Checks the options (usage_error on a bad one) and converts them.
cluster::cluster_options cluster_settings(const cluster_cli_options& o);

}  // namespace gpubench::cli

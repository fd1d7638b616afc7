// `run` under an MPI launch over two or more nodes (cluster mode, docs/cluster.md): the
// options it adds to `run`, and the console's last words: the suspects.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/result.hpp"
#include "core/run_context.hpp"
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

// Options of `run` that cluster mode cannot honour, refused once the launch is known to be a
// cluster (usage_error): --token-file, since every launch draws its own secret for its pair
// servers and a file's token would be a weaker, longer-lived one (docs/cluster.md).
void refuse_in_cluster_mode(const core::run_context& ctx);

// Rank 0's ending: prints the suspects (last, each against the cluster median) and returns
// the exit code: 1 when a case failed or (--fail-on-suspect) a suspect was named, else 0.
int finish_cluster_run(const core::result_file& file, const cluster_cli_options& o);

}  // namespace gpubench::cli

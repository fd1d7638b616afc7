// Cluster mode: under mpirun/srun over two or more nodes, one `gpubench run` measures every
// node by itself, node pairs over the network (every pair, or K random matchings: sweep_plan.hpp;
// the ranks as the two ends of the ordinary net.* benchmarks, bandwidth both ways) and
// allreduce, and rank 0 writes one result file and gives the verdict. The sequence is built with
// MPI only (cluster_none.cpp otherwise). See docs/cluster.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/sweep_plan.hpp"
#include "core/partial_file.hpp"
#include "core/registry.hpp"
#include "core/result.hpp"
#include "core/run_context.hpp"
#include "core/topology.hpp"

namespace gpubench::cluster {

struct cluster_options {
  std::size_t pair_concurrency = 0;  // pairs measured at once at most (0: a round)
  pairs_choice pairs;                // --pairs, --pair-seed (sweep_plan.hpp)
  // --topology: each node's leaf switch (read on world rank 0 only, the rank that plans).
  std::optional<core::topology> topology;
  std::vector<std::uint64_t> pair_sizes;  // sizes below 64 KiB: latency; others: bandwidth
  bool pair_samples = false;              // keep raw per-pair samples
  double timeout_s = 60;                  // a node silent this long is stalled
  std::filesystem::path out;              // written by rank 0
  bool quiet = false;
  bool fail_on_suspect = false;  // exit 1 when a slow node or link is named
  // Rank 0 writes `out` through it, so an interrupt or a stall can write it from another thread.
  core::partial_file* partial = nullptr;
};

struct cluster_outcome {
  bool rank0 = false;
  core::result_file file;  // complete on rank 0 only
  // A node stopped answering and the launch went on without it: its ranks cannot finish
  // together, so rank 0 ends the job (MPI_Abort) once the verdict is out.
  bool end_job = false;
};

// The node name: $GPUBENCH_NODE_NAME (test-only: many ranks on one machine stand for many
// nodes) or the hostname.
std::string node_name();

// Default --pair-sizes: 8 B (latency) and 1 MiB (bandwidth).
std::vector<std::uint64_t> default_pair_sizes();

// An MPI launch, held for the rest of the run (MPI stays initialised while it lives, also when
// the launch turns out to be one node and `run` goes on as before).
class launch {
 public:
  virtual ~launch() = default;
  // Two or more node names among the ranks.
  virtual bool cluster() const = 0;
  // This rank's place on its node: who measures the node-local benchmarks for it, and how the
  // ranks meet again before a collective (core::node_share).
  virtual core::node_share share() const = 0;
  // Cluster mode from start to verdict: refuses the options it cannot honour (usage_error,
  // before anything runs), runs the sequence, and on rank 0 prints where the file is and the
  // suspects (verdict.hpp). Returns the process's exit code (0 on the other ranks). A node that
  // stopped answering is left out of the rest of the launch, and rank 0 ends the job
  // (MPI_Abort, exit 3) after its file and the verdict: no return then.
  int run(const std::vector<const core::benchmark_def*>& selected, const core::run_context& ctx,
          const core::registry& registry, core::result_file file, const cluster_options& options);

 protected:
  // The cluster sequence; returns what rank 0 wrote (`rank0` false on the other ranks).
  virtual cluster_outcome sequence(const std::vector<const core::benchmark_def*>& selected,
                                   const core::run_context& ctx, const core::registry& registry,
                                   core::result_file file, const cluster_options& options) = 0;
  // Ends every rank of the job (rank 0, after the verdict of an outcome with end_job).
  [[noreturn]] virtual void end_job(const std::string& why) = 0;
};

// Initialises MPI and learns every rank's node name (collective: every rank calls it).
// nullptr in a build without MPI.
std::unique_ptr<launch> open_launch(double timeout_s);

}  // namespace gpubench::cluster

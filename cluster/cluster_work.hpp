// What a cluster launch runs, phase by phase: the selection split by the kind each benchmark
// measures (node-local, pairs of nodes, collectives), and the phases' time budgets for the
// progress lines (cluster_progress.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cluster/cluster_progress.hpp"
#include "core/registry.hpp"
#include "core/run_context.hpp"

namespace gpubench::cluster {

// Pair sizes from this one on go to the bandwidth benchmarks, smaller ones to latency.
inline constexpr std::uint64_t pair_bandwidth_from = 64u << 10;

struct cluster_work {
  std::vector<const core::benchmark_def*> local;        // host memory, GPUs: a node by itself
  std::vector<const core::benchmark_def*> pairs;        // point to point: every pair of nodes
  std::vector<const core::benchmark_def*> collectives;  // every rank together
};

cluster_work split_work(const std::vector<const core::benchmark_def*>& selected);

// The budgets of `work` with `rounds` pair rounds, each pair measured at `pair_sizes` (sizes
// under 64 KiB by the latency benchmarks, the others by the bandwidth ones, in both ways).
phase_budgets work_budgets(const cluster_work& work, const core::run_context& ctx,
                           const std::vector<std::uint64_t>& pair_sizes, std::size_t rounds);

}  // namespace gpubench::cluster

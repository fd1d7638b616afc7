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

struct cluster_work {
  std::vector<const core::benchmark_def*> local;        // host memory, GPUs: a node by itself
  std::vector<const core::benchmark_def*> pairs;        // point to point: every pair of nodes
  std::vector<const core::benchmark_def*> collectives;  // every rank together
};

cluster_work split_work(const std::vector<const core::benchmark_def*>& selected);

// The budgets of `work` with `rounds` pair rounds, each pair measured at `pair_sizes` sizes.
phase_budgets work_budgets(const cluster_work& work, const core::run_context& ctx,
                           std::size_t pair_sizes, std::size_t rounds);

}  // namespace gpubench::cluster

// The simulation of cluster mode's whole method without MPI: the same planning code as the launch
// (core::random_matchings, then plan_confirmation's second look), each pair's figure drawn from
// a model fabric (sim_model.hpp) both ways, the result file's cluster section built as the launch
// builds it (a sparse pair list, both directions, the confirmation), and the same verdict
// (cluster::judge), scored against what was planted. docs/cluster.md "The simulation".
#pragma once

#include <cstddef>
#include <cstdint>

#include "cluster/sim_model.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// What one sweep took and found, counted against the model's truth.
struct sweep_outcome {
  std::size_t rounds = 0;        // matchings + the second look's steps (pairs, local points)
  std::size_t second_steps = 0;  // of which the second look
  std::size_t figures = 0;       // pair figures measured, each way its own, both looks
  std::size_t named_nodes = 0, named_links = 0, named_uplinks = 0;
  std::size_t slow_nodes = 0, slow_nodes_found = 0;  // deficit >= 10%
  std::size_t mild_nodes = 0, mild_nodes_found = 0;  // deficit under 10%
  std::size_t nodes_way_right = 0;  // found slow nodes named in the way they were slowed
  std::size_t slow_links = 0, slow_links_found = 0;
  std::size_t slow_uplinks = 0, slow_uplinks_found = 0;
  std::size_t flapping = 0, flapping_named = 0;  // named as a node, or at a link's end
  std::size_t healthy_nodes_named = 0;           // neither slow nor flapping
  std::size_t healthy_one_pass = 0;  // ... named by the first look alone (no second look)
  std::size_t wrong_links = 0;       // named links not planted, no flapping end
  std::size_t wrong_uplinks = 0;
};

// One simulated sweep: the model it was drawn from and the result file the launch would write
// (its cluster section only), before the verdict.
struct simulated_sweep {
  sim_model model;
  core::result_file file;
  std::size_t second_steps = 0;  // the second look's steps (pair steps, and local re-runs)
  std::size_t figures = 0;       // pair figures drawn, each way its own, both looks
};

// Plans, draws and files one sweep of `config` from `seed` (the same seed, the same sweep).
simulated_sweep simulate(const sim_config& config, std::uint64_t seed);

// The verdict on the sweep's file (cluster::judge), scored against the model.
sweep_outcome score(const simulated_sweep& sweep);

// Sums of many sweeps, and the most rounds one took.
struct sim_summary {
  std::size_t sweeps = 0;
  std::size_t max_rounds = 0;
  sweep_outcome total;
  void add(const sweep_outcome& o);
};

}  // namespace gpubench::cluster

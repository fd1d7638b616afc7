// Which node pairs a cluster launch measures (`--pairs all | matchings[:K]`, `--pair-seed`):
// every pair by the circle method, or K random disjoint matchings (core::random_matchings,
// topology-aware where each node's leaf is known), and the default between them by what each
// costs in rounds. Pure, so the choice and the plan are unit-tested. docs/cluster.md "Which
// pairs".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cluster_schedule.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// K when `--pairs matchings` gives none.
inline constexpr std::size_t default_matchings = 4;
// The steps the localisation adds to a sparse sweep's second look beyond what every pair's
// sweep already measured: a candidate's ends against this many partners seen healthy.
inline constexpr std::size_t localisation_steps = 3;
// The largest K taken (a K at or above N-1 is every pair anyway).
inline constexpr std::size_t max_matchings = 4096;

enum class pairs_method { automatic, all, matchings };

struct pairs_choice {
  pairs_method method = pairs_method::automatic;
  std::size_t k = default_matchings;  // matchings (and the automatic choice's alternative)
  std::optional<std::uint64_t> seed;  // --pair-seed; none: drawn fresh at the launch
};

// "all", "matchings", "matchings:K"; throws core::usage_error naming --pairs otherwise.
pairs_choice parse_pairs(std::string_view text);

// The rounds every pair takes: N-1 for even N, N for odd N (one node idle in each).
std::size_t all_pairs_rounds(std::size_t nodes);

// The default: every pair while its rounds are no more than K matchings plus the steps their
// localisation adds (K + localisation_steps): up to 8 nodes with K = 4, matchings from 9 on.
bool all_pairs_by_default(std::size_t nodes, std::size_t k);

struct sweep {
  core::pair_plan plan;                       // as recorded in the file
  std::vector<core::planned_pair> pair_list;  // empty: every pair (dense slots)
  // The sub-rounds in the order they run (--pair-concurrency splits each round), and for each
  // the whole round it belongs to.
  std::vector<core::pair_round> steps;
  std::vector<std::size_t> round_of_step;
  std::size_t rounds = 0;  // whole rounds
};

// The plan for `nodes` nodes: the choice resolved (automatic by all_pairs_by_default), the
// rounds drawn (matchings: from the choice's seed, else `fresh_seed`, over `leaves`), split at
// `concurrency` pairs at most (0: no cap). A matching sweep's pair_list records each pair with
// its sub-round (the index into `steps`), as the dense schedule's sub-rounds are numbered.
sweep plan_sweep(std::size_t nodes, const pairs_choice& choice, std::size_t concurrency,
                 const std::vector<std::string>& leaves, std::uint64_t fresh_seed);

// A seed from the system's random source, for a launch without --pair-seed.
std::uint64_t draw_pair_seed();

}  // namespace gpubench::cluster

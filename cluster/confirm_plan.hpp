// What the second look measures again (cluster/confirm.cpp runs it on rank 0): the candidates
// of the first look; the flagged local points, run again on every node at once (a fresh cluster
// to judge the candidates against); each candidate node's pairs against partners that are no
// candidates (from its own leaf where the file gives leaves), the way it was slow; each
// candidate link's pair, its slow way. Pure, so the plan is unit-tested. docs/cluster.md "The
// second look".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/suspects.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// Partners a candidate node is measured against again (fewer when fewer nodes are free).
inline constexpr std::size_t confirm_partners = 3;
// At most this many candidates are measured again (the strongest); the others keep the first
// look's verdict, marked as not measured again.
inline constexpr std::size_t max_confirm_candidates = 64;

struct local_point {
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t bytes = 0;
};

struct local_rerun {
  std::size_t node = 0;
  std::vector<local_point> points;
};

struct pair_rerun {
  std::size_t a = 0, b = 0;             // a < b: a serves, b measures, as in the pair rounds
  std::optional<std::size_t> for_node;  // for this candidate node; none: the link a-b
  // The way to measure again: "" every way the sweep measured; "to_peer" (b -> a) or
  // "from_peer" (a -> b): only that way's bandwidth cases, the way that was slow.
  std::string direction;
};

struct confirm_plan {
  std::vector<core::candidate_ref> candidates;
  std::vector<local_rerun> local;  // every answering node, the flagged points (none: no step)
  // The pairs in steps: every node in at most one pair of a step, at most `concurrency` pairs.
  std::vector<std::vector<pair_rerun>> steps;

  bool empty() const { return candidates.empty(); }
  std::size_t pair_count() const;
};

confirm_plan plan_confirmation(const core::cluster_section& c, const suspect_options& options = {},
                               std::size_t concurrency = 0);

}  // namespace gpubench::cluster

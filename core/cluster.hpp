// Cluster mode's part of a result file (`"cluster"`, present only when one launch measured two
// or more nodes): every node's own system and results, the node-pair matrix of network
// measurements as per-pair summaries, which nodes stopped answering, and the second look at the
// suspects (format 1.2). See docs/cluster.md.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::core {

// Index of the unordered pair {a, b} (a != b) of n nodes in row-major upper-triangle order:
// (0,1), (0,2), ..., (0,n-1), (1,2), ... -> 0, 1, 2, ...; n(n-1)/2 pairs in all.
std::size_t pair_index(std::size_t a, std::size_t b, std::size_t n);
std::size_t pair_count(std::size_t n);

nlohmann::json cluster_to_json(const cluster_section& c);
// Validates and converts; throws input_error naming the field ("cluster.pairs[1].median: ...").
cluster_section cluster_from_json(const nlohmann::json& j);

}  // namespace gpubench::core

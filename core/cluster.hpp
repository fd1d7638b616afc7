// Cluster mode's part of a result file (`"cluster"`, present only when one launch measured two
// or more nodes): every node's own system and results, the node-pair matrix of network
// measurements as per-pair summaries, which nodes stopped answering, and the second look at the
// suspects (format 1.2). See docs/cluster.md.
#pragma once

#include <cstddef>
#include <optional>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::core {

// Index of the unordered pair {a, b} (a != b) of n nodes in row-major upper-triangle order:
// (0,1), (0,2), ..., (0,n-1), (1,2), ... -> 0, 1, 2, ...; n(n-1)/2 pairs in all.
std::size_t pair_index(std::size_t a, std::size_t b, std::size_t n);
std::size_t pair_count(std::size_t n);

// The pair slots of a cluster section: every pair_measurement's vectors hold one entry per slot.
// A section without a pair_list has every pair, slot pair_index(); one with a pair_list (a sparse
// sweep, --pairs matchings) has its listed pairs, slot = position in the list.
std::size_t slot_count(const cluster_section& c);
planned_pair slot_pair(const cluster_section& c, std::size_t slot);  // its round: 0 when dense

// The slot of a pair, looked up in O(1): pair_index() for a dense section, a hash of the list
// for a sparse one. Holds no reference to the section.
class slot_lookup {
 public:
  explicit slot_lookup(const cluster_section& c);
  std::optional<std::size_t> find(std::size_t a, std::size_t b) const;

 private:
  std::size_t m_nodes = 0;
  bool m_dense = true;
  std::unordered_map<std::uint64_t, std::size_t> m_slots;  // (a << 32 | b) -> slot, a < b
};

nlohmann::json cluster_to_json(const cluster_section& c);
// Validates and converts; throws input_error naming the field ("cluster.pairs[1].median: ...").
cluster_section cluster_from_json(const nlohmann::json& j);

}  // namespace gpubench::core

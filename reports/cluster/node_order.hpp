// The order a cluster report shows its nodes in: grouped by leaf switch where the file gives
// each node's leaf (cluster.leaves), else by node index; nothing about switches is shown when
// the fabric's shape is not known.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpubench::reports::cluster {

struct leaf_group {
  std::string leaf;       // the switch's name; "" for the nodes the file does not place
  std::size_t first = 0;  // position of its first node
  std::size_t count = 0;
};

struct node_order {
  std::vector<std::size_t> nodes;     // position -> node index
  std::vector<std::size_t> position;  // node index -> position
  std::vector<leaf_group> groups;     // empty: the shape is not known

  bool by_leaf() const { return !groups.empty(); }
};

// Leaves in the order their first node appears, nodes by index within a leaf, the unplaced
// nodes last.
node_order order_nodes(const core::cluster_section& c);

// The leaf of node i ("" when not known).
std::string leaf_of(const core::cluster_section& c, std::size_t i);

// The nodes on a leaf, by index.
std::vector<std::size_t> nodes_on(const core::cluster_section& c, const std::string& leaf);

// How a group is called in the report: its name, or "no leaf known".
std::string group_name(const std::string& leaf);

}  // namespace gpubench::reports::cluster

#include "reports/cluster/node_order.hpp"

#include <algorithm>
#include <map>

namespace gpubench::reports::cluster {

std::string leaf_of(const core::cluster_section& c, std::size_t i) {
  return i < c.leaves.size() ? c.leaves[i] : "";
}

std::vector<std::size_t> nodes_on(const core::cluster_section& c, const std::string& leaf) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    if (leaf_of(c, i) == leaf) out.push_back(i);
  return out;
}

std::string group_name(const std::string& leaf) {
  return leaf.empty() ? "no leaf known" : leaf;
}

node_order order_nodes(const core::cluster_section& c) {
  const std::size_t n = c.nodes.size();
  node_order o;
  o.nodes.resize(n);
  o.position.resize(n);
  const bool known = std::any_of(c.leaves.begin(), c.leaves.end(),
                                 [](const std::string& l) { return !l.empty(); });
  if (!known) {
    for (std::size_t i = 0; i < n; ++i)
      o.nodes[i] = o.position[i] = i;
    return o;
  }
  std::map<std::string, std::size_t> rank;  // leaf -> order of first appearance ("" last)
  for (std::size_t i = 0; i < n; ++i) {
    const std::string leaf = leaf_of(c, i);
    if (!leaf.empty()) rank.try_emplace(leaf, rank.size());
  }
  const std::size_t unplaced = rank.size();
  auto rank_of = [&](std::size_t i) {
    const std::string leaf = leaf_of(c, i);
    return leaf.empty() ? unplaced : rank.at(leaf);
  };
  for (std::size_t i = 0; i < n; ++i)
    o.nodes[i] = i;
  std::stable_sort(o.nodes.begin(), o.nodes.end(),
                   [&](std::size_t a, std::size_t b) { return rank_of(a) < rank_of(b); });
  for (std::size_t p = 0; p < n; ++p) {
    o.position[o.nodes[p]] = p;
    const std::string leaf = leaf_of(c, o.nodes[p]);
    if (o.groups.empty() || o.groups.back().leaf != leaf) o.groups.push_back({leaf, p, 0});
    ++o.groups.back().count;
  }
  return o;
}

}  // namespace gpubench::reports::cluster

// Each leaf's cross-leaf figures against the figures within leaves; a slow uplink found first
// explains its figures away before the next is looked for, so with few leaves the other end of a
// slow path is not named too. O(leaves x figures) per uplink named.
#include "cluster/uplinks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/text_format.hpp"

namespace gpubench::cluster {

namespace {

constexpr std::size_t no_leaf = static_cast<std::size_t>(-1);

// One leaf's figures that cross its uplink one way (or either way, for a measurement with none).
struct crossing {
  std::size_t leaf = 0;
  role side = role::both;
  std::vector<std::size_t> edges;  // indices into the group's edges
};

struct named_uplink {
  std::size_t leaf = 0;
  role side = role::both;
  double median = 0;
  std::size_t slow = 0, measured = 0;
};

std::string uplink_words(role r) {
  return r == role::send      ? "slow out of the leaf: "
         : r == role::receive ? "slow into the leaf: "
                              : "";
}

}  // namespace

void explain_uplinks(const core::cluster_section& c, pair_group& g, const suspect_options& options,
                     first_look& out) {
  const std::size_t n = c.nodes.size();
  if (c.leaves.size() != n || g.edges.empty()) return;
  std::vector<std::string> names;
  std::map<std::string, std::size_t> ids;
  std::vector<std::size_t> leaf_of(n, no_leaf);
  for (std::size_t i = 0; i < n; ++i) {
    if (c.leaves[i].empty()) continue;  // a node the shape does not place
    const auto [it, added] = ids.emplace(c.leaves[i], names.size());
    if (added) names.push_back(c.leaves[i]);
    leaf_of[i] = it->second;
  }
  if (names.size() < 2) return;

  // The yardstick: figures within leaves, which cross no uplink.
  std::vector<std::vector<double>> within_leaf(names.size());
  std::vector<double> within;
  std::map<std::pair<std::size_t, role>, crossing> crossings;
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const auto& e = g.edges[i];
    const std::size_t x = leaf_of[e.from], y = leaf_of[e.to];
    if (x == no_leaf || y == no_leaf) continue;
    if (x == y) {
      within.push_back(e.value);
      within_leaf[x].push_back(e.value);
      continue;
    }
    const role out_side = g.directed ? role::send : role::both;
    const role in_side = g.directed ? role::receive : role::both;
    auto& from = crossings[{x, out_side}];
    from.leaf = x;
    from.side = out_side;
    from.edges.push_back(i);
    auto& to = crossings[{y, in_side}];
    to.leaf = y;
    to.side = in_side;
    to.edges.push_back(i);
  }
  if (within.size() < min_nodes_for_verdict) return;  // nothing to tell an uplink from a node by
  const reference ref = make_reference(within, g.higher_is_better);
  const double floor = node_floor(options, g.higher_is_better);
  // A leaf's crossing figures are judged by their median against the figures within leaves,
  // with the spread of a median of as many figures (1.25 / sqrt(n) of one figure's), and no
  // less than the leaves' own medians within them spread where there are 3 leaves or more: one
  // figure's spread would hide a slow uplink in the noise of single figures.
  std::vector<double> leaf_medians;
  for (const auto& w : within_leaf)
    if (w.size() >= min_nodes_for_verdict) leaf_medians.push_back(median_of(w));
  const double leaves_spread =
      leaf_medians.size() >= 3 ? make_reference(leaf_medians, g.higher_is_better).log_mad : 0;
  auto median_ref = [&](std::size_t figures) {
    reference r = ref;
    r.log_mad =
        std::max(leaves_spread,
                 ref.log_mad * std::min(1.0, 1.2533 / std::sqrt(static_cast<double>(figures))));
    return r;
  };
  // A leaf with no figure within it, or slow within it (by the same test), is no uplink's: its
  // nodes speak.
  std::vector<bool> fine_within(names.size(), false);
  for (std::size_t l = 0; l < names.size(); ++l)
    fine_within[l] = !within_leaf[l].empty() &&
                     !median_ref(within_leaf[l].size())
                          .is_outlier(median_of(within_leaf[l]), options.deviation, floor);

  // Greedy: the leaf and way with the largest share of slow crossing figures is named, its
  // figures are explained, and the rest is looked at again.
  std::vector<bool> explained(g.edges.size(), false);
  std::vector<named_uplink> named;
  std::set<std::pair<std::size_t, role>> done;
  for (;;) {
    std::optional<named_uplink> best;
    double best_share = options.pair_share;
    for (const auto& [key, x] : crossings) {
      if (!fine_within[x.leaf] || done.count(key)) continue;
      std::vector<double> values;
      std::size_t slow = 0;
      for (const auto i : x.edges) {
        if (explained[i]) continue;
        values.push_back(g.edges[i].value);
        if (ref.falls_short(g.edges[i].value, floor)) ++slow;
      }
      if (values.size() < min_nodes_for_verdict) continue;
      const double share = static_cast<double>(slow) / static_cast<double>(values.size());
      const double m = median_of(values);
      if (share <= best_share || !median_ref(values.size()).is_outlier(m, options.deviation, floor))
        continue;
      best_share = share;
      best = named_uplink{x.leaf, x.side, m, slow, values.size()};
    }
    if (!best) break;
    const std::pair<std::size_t, role> key{best->leaf, best->side};
    done.insert(key);
    for (const auto i : crossings[key].edges)
      explained[i] = true;
    named.push_back(*best);
    // With two leaves the other leaf's uplink, the other way, carries the very same pairs:
    // nothing tells the two apart, so both are named.
    if (names.size() == 2) {
      const std::pair<std::size_t, role> mirror{1 - best->leaf,
                                                best->side == role::send      ? role::receive
                                                : best->side == role::receive ? role::send
                                                                              : role::both};
      if (crossings.count(mirror) && fine_within[mirror.first] && done.insert(mirror).second) {
        named.push_back(*best);
        named.back().leaf = mirror.first;
        named.back().side = mirror.second;
      }
    }
  }
  if (named.empty()) return;
  // Most leaves slower across than within, one way: that is the fabric's shape (an
  // oversubscribed top, a whole round sharing it), not that many slow uplinks.
  std::map<role, std::set<std::size_t>> leaves_by_side, named_by_side;
  for (const auto& [key, x] : crossings)
    leaves_by_side[key.second].insert(key.first);
  for (const auto& u : named)
    named_by_side[u.side].insert(u.leaf);
  for (const auto& [side, leaves] : named_by_side)
    if (2 * leaves.size() > leaves_by_side[side].size() && leaves_by_side[side].size() > 2) {
      out.unsteady.push_back(g.label + ": " + std::to_string(leaves.size()) + " of " +
                             std::to_string(leaves_by_side[side].size()) +
                             " leaves slower across leaves than within: the fabric's shape, not "
                             "a slow uplink");
      return;
    }

  for (const auto& u : named) {
    auto f = make_finding(g.benchmark, g.params, g.bytes, u.median, ref, g.unit);
    f.side = u.side;
    f.directed = g.directed;
    f.text = uplink_words(u.side) + g.label + ": median " +
             against(u.median, ref.median, g.unit, " across leaves") + "; " +
             std::to_string(u.slow) + " of " + std::to_string(u.measured) +
             " cross-leaf pairs slow; within " + names[u.leaf] + " " +
             core::format_value(median_of(within_leaf[u.leaf])) + " " + g.unit;
    if (names.size() == 2)
      f.text += " (two leaves: the other leaf's uplink, the other way, is on the same path)";
    out.uplinks[names[u.leaf]].push_back(std::move(f));
  }
  std::vector<edge> kept;
  kept.reserve(g.edges.size());
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (!explained[i]) kept.push_back(g.edges[i]);
  g.edges = std::move(kept);
}

}  // namespace gpubench::cluster

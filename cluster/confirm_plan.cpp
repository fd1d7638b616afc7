#include "cluster/confirm_plan.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "cluster/first_look.hpp"

namespace gpubench::cluster {

namespace {

double candidate_strength(const std::vector<finding>& f) {
  double best = 0;
  for (const auto& x : f)
    best = std::max(best, x.change());
  return best;
}

// Greedy steps: each pair in the first step where neither end is busy and there is room.
// The pairs at the busiest nodes go first: a node in D pairs then takes about D steps, where
// first come, first served could take up to 2D - 1.
std::vector<std::vector<pair_rerun>> into_steps(std::vector<pair_rerun> pairs,
                                                std::size_t concurrency) {
  std::map<std::size_t, std::size_t> degree;
  for (const auto& p : pairs) {
    ++degree[p.a];
    ++degree[p.b];
  }
  std::stable_sort(pairs.begin(), pairs.end(), [&](const pair_rerun& x, const pair_rerun& y) {
    return std::max(degree[x.a], degree[x.b]) > std::max(degree[y.a], degree[y.b]);
  });
  std::vector<std::vector<pair_rerun>> steps;
  std::vector<std::set<std::size_t>> busy;
  for (const auto& p : pairs) {
    std::size_t s = 0;
    while (s < steps.size() && (busy[s].count(p.a) || busy[s].count(p.b) ||
                                (concurrency && steps[s].size() >= concurrency)))
      ++s;
    if (s == steps.size()) {
      steps.emplace_back();
      busy.emplace_back();
    }
    steps[s].push_back(p);
    busy[s].insert(p.a);
    busy[s].insert(p.b);
  }
  return steps;
}

// The one way a candidate's pair findings are slow (role::both: none, several, or no way).
role slow_side(const std::vector<finding>& findings) {
  bool send = false, receive = false;
  for (const auto& f : findings) {
    if (f.local) continue;
    send = send || f.side == role::send;
    receive = receive || f.side == role::receive;
    if (!f.directed || f.side == role::both) return role::both;
  }
  return send == receive ? role::both : send ? role::send : role::receive;
}

// The pair_rerun direction that has `node` (an end of the pair a < b) `side`: a sends in
// from_peer, b in to_peer; "" for every way.
std::string way_of_pair(std::size_t a, std::size_t node, role side) {
  if (side == role::both) return "";
  const bool sends = side == role::send;
  return (node == a) == sends ? "from_peer" : "to_peer";
}

}  // namespace

std::size_t confirm_plan::pair_count() const {
  std::size_t n = 0;
  for (const auto& s : steps)
    n += s.size();
  return n;
}

confirm_plan plan_confirmation(const core::cluster_section& c, const suspect_options& options,
                               std::size_t concurrency) {
  confirm_plan plan;
  const auto look = look_once(c, options);

  // The candidates, strongest first, at most max_confirm_candidates.
  struct entry {
    double strength;
    core::candidate_ref ref;
    const std::vector<finding>* findings;
  };
  std::vector<entry> all;
  for (const auto& [i, f] : look.nodes)
    all.push_back({candidate_strength(f), {i, std::nullopt}, &f});
  // Links: every one with a finding of its own; of those only behind a node (its slow pairs),
  // the slowest confirm_partners per node, so a slow node's N-1 pairs are not all measured again.
  std::map<std::size_t, std::vector<entry>> behind;
  for (const auto& [ab, f] : look.links) {
    const entry e{candidate_strength(f), {ab.first, ab.second}, &f};
    const auto own = std::find_if(f.begin(), f.end(), [](const finding& x) { return !x.behind; });
    if (own != f.end())
      all.push_back(e);
    else
      behind[*f.front().behind].push_back(e);
  }
  for (auto& [node, links] : behind) {
    std::stable_sort(links.begin(), links.end(),
                     [](const entry& x, const entry& y) { return x.strength > y.strength; });
    for (std::size_t i = 0; i < links.size() && i < confirm_partners; ++i)
      all.push_back(links[i]);
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const entry& x, const entry& y) { return x.strength > y.strength; });
  // At a candidate node, at most confirm_partners links besides its own partners (the
  // strongest), so a node that flaps, slow with half its partners, keeps the second look short.
  std::set<std::size_t> node_cands;
  for (const auto& e : all)
    if (!e.ref.b) node_cands.insert(e.ref.a);
  std::map<std::size_t, std::size_t> links_at;
  std::vector<entry> kept;
  for (const auto& e : all) {
    if (e.ref.b) {
      const auto full = [&](std::size_t x) {
        return node_cands.count(x) && links_at[x] >= confirm_partners;
      };
      if (full(e.ref.a) || full(*e.ref.b)) continue;
      ++links_at[e.ref.a];
      ++links_at[*e.ref.b];
    }
    kept.push_back(e);
  }
  all = std::move(kept);
  if (all.size() > max_confirm_candidates) all.resize(max_confirm_candidates);
  if (all.empty()) return plan;

  std::set<std::size_t> involved, node_candidates;
  for (const auto& e : all) {
    plan.candidates.push_back(e.ref);
    involved.insert(e.ref.a);
    if (e.ref.b)
      involved.insert(*e.ref.b);
    else
      node_candidates.insert(e.ref.a);
  }
  // Partners: nodes in no candidate; failing that, nodes that are no candidate node. Where the
  // file gives leaves, a candidate's own leaf first: its figures with no uplink on the path.
  std::vector<std::size_t> free, fallback;
  std::map<std::string, std::vector<std::size_t>> free_in_leaf;
  const bool leaves = c.leaves.size() == c.nodes.size();
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    if (!node_answered(c.nodes[i])) continue;
    if (!involved.count(i)) {
      free.push_back(i);
      if (leaves && !c.leaves[i].empty()) free_in_leaf[c.leaves[i]].push_back(i);
    }
    if (!node_candidates.count(i)) fallback.push_back(i);
  }

  std::vector<pair_rerun> pairs;
  std::vector<local_point> flagged;  // every flagged local point, once
  std::set<std::string> seen;
  // The one way the sweep measured its one-way cases, where it measured one only.
  std::optional<way> only_way;
  std::set<way> ways;
  for (const auto& m : c.pairs)
    if (way_of(m.params) != way::both) ways.insert(way_of(m.params));
  if (ways.size() == 1) only_way = *ways.begin();
  std::map<std::string, std::size_t> next;  // spreads the candidates over each pool's partners
  for (const auto& e : all) {
    const role side = slow_side(*e.findings);
    if (e.ref.b) {
      // The link's slow way: its first end sending (a -> b, from_peer) or receiving.
      pairs.push_back({e.ref.a, *e.ref.b, std::nullopt, way_of_pair(e.ref.a, e.ref.a, side)});
      continue;
    }
    const std::size_t node = e.ref.a;
    bool by_pairs = false;
    for (const auto& f : *e.findings) {
      if (!f.local) {
        by_pairs = true;
        continue;
      }
      if (seen.insert(f.benchmark + "|" + f.params.dump() + "|" + std::to_string(f.bytes)).second)
        flagged.push_back({f.benchmark, f.params, f.bytes});
    }
    if (!by_pairs) continue;
    std::string pool_name;
    const std::vector<std::size_t>* pool = &free;
    if (leaves && !c.leaves[node].empty()) {
      const auto it = free_in_leaf.find(c.leaves[node]);
      if (it != free_in_leaf.end() && it->second.size() >= confirm_partners) {
        pool = &it->second;
        pool_name = "leaf " + it->first;
      }
    }
    std::vector<std::size_t> others;
    if (pool->empty()) {
      for (const auto i : fallback)
        if (i != node) others.push_back(i);
      pool = &others;
    }
    // A sweep that measured one way only (to_peer: the second end sends) measures again that way
    // only too: the candidate must be the pair's end on its slow side.
    std::vector<std::size_t> sided;
    if (only_way && side != role::both) {
      const bool node_first = (side == role::send) == (*only_way == way::from_peer);
      for (const auto i : *pool)
        if (node_first ? i > node : i < node) sided.push_back(i);
      if (!sided.empty()) {
        pool = &sided;
        pool_name += node_first ? "|after" : "|before";
      }
    }
    std::size_t& from = next[pool_name];
    for (std::size_t k = 0; k < std::min(confirm_partners, pool->size()); ++k) {
      const std::size_t partner = (*pool)[(from + k) % pool->size()];
      const std::size_t a = std::min(node, partner), b = std::max(node, partner);
      // The candidate on the slow side: sending when it is slow to send.
      pairs.push_back({a, b, node, way_of_pair(a, node, side)});
    }
    from += confirm_partners;
  }
  plan.steps = into_steps(pairs, concurrency);
  // The flagged points on every node at once: the candidates beside the whole cluster, at the
  // same moment, as in the local phase.
  if (!flagged.empty())
    for (std::size_t i = 0; i < c.nodes.size(); ++i)
      if (node_answered(c.nodes[i])) plan.local.push_back({i, flagged});
  return plan;
}

}  // namespace gpubench::cluster

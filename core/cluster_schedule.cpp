#include "core/cluster_schedule.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <unordered_set>
#include <utility>

namespace gpubench::core {

namespace {

std::size_t round_count(std::size_t nodes) {
  return nodes < 2 ? 0 : nodes % 2 == 0 ? nodes - 1 : nodes;
}

// Round r of the circle method on `nodes` nodes.
pair_round circle_round(std::size_t nodes, std::size_t r) {
  // Odd N: a phantom node makes the count even; its partner of the round sits out.
  const std::size_t m = nodes % 2 == 0 ? nodes : nodes + 1;
  const std::size_t ring = m - 1;  // node m-1 stays fixed, the others turn around it
  pair_round round;
  round.reserve(m / 2);
  auto add = [&](std::size_t x, std::size_t y) {
    if (x >= nodes || y >= nodes) return;  // the phantom's partner is idle
    round.push_back({std::min(x, y), std::max(x, y)});
  };
  add(r, m - 1);
  for (std::size_t i = 1; i < m / 2; ++i)
    add((r + i) % ring, (r + ring - i) % ring);
  return round;
}

}  // namespace

std::vector<pair_round> round_robin(std::size_t nodes) {
  std::vector<pair_round> rounds;
  rounds.reserve(round_count(nodes));
  for (std::size_t r = 0; r < round_count(nodes); ++r)
    rounds.push_back(circle_round(nodes, r));
  return rounds;
}

namespace {

// Fisher-Yates with the generator's raw words, so one seed plans the same rounds with every
// standard library (std::shuffle's algorithm is the library's own).
template <typename T>
void shuffle_with(std::vector<T>& v, std::mt19937_64& draw) {
  for (std::size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[draw() % i]);
}

std::uint64_t pair_key(std::size_t a, std::size_t b) {
  return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
}

// `k` of the circle method's rounds, drawn, on randomly relabelled members: random disjoint
// matchings with distinct partners (all the rounds there are, when k is more).
std::vector<pair_round> relabelled_rounds(const std::vector<std::size_t>& members, std::size_t k,
                                          std::mt19937_64& draw) {
  std::vector<std::size_t> label = members;
  shuffle_with(label, draw);
  std::vector<std::size_t> which(round_count(members.size()));
  std::iota(which.begin(), which.end(), std::size_t{0});
  shuffle_with(which, draw);
  which.resize(std::min(k, which.size()));
  std::vector<pair_round> rounds;
  for (const std::size_t r : which) {
    auto round = circle_round(members.size(), r);
    for (auto& p : round) {
      const auto [x, y] = std::minmax(label[p.a], label[p.b]);
      p = {x, y};
    }
    rounds.push_back(std::move(round));
  }
  return rounds;
}

// Plans matchings that cross leaves: pairs of nodes on different leaves, each pair new.
class across_planner {
 public:
  across_planner(const std::vector<std::size_t>& group, std::mt19937_64& draw)
      : m_group(group), m_draw(draw) {}

  bool valid(std::size_t x, std::size_t y) const {
    return x != y && m_group[x] != m_group[y] && !m_used.count(pair_key(x, y));
  }
  void use(pair_round& round, std::size_t x, std::size_t y) {
    m_used.insert(pair_key(x, y));
    round.push_back({std::min(x, y), std::max(x, y)});
  }
  void note(const pair_round& round) {
    for (const auto& p : round)
      m_used.insert(pair_key(p.a, p.b));
  }

  // Pairs `idle` among themselves, greedily, where they may meet.
  void pair_up(std::vector<std::size_t> idle, pair_round& round) {
    shuffle_with(idle, m_draw);
    std::vector<bool> taken(idle.size(), false);
    for (std::size_t i = 0; i < idle.size(); ++i) {
      if (taken[i]) continue;
      for (std::size_t j = i + 1; j < idle.size(); ++j)
        if (!taken[j] && valid(idle[i], idle[j])) {
          taken[i] = taken[j] = true;
          use(round, idle[i], idle[j]);
          break;
        }
    }
  }

  // One perfect matching across leaves (one node idle for odd N): the nodes in a random order,
  // paired two by two, so a leaf's nodes meet nodes of many leaves (a slow uplink is told from
  // the uplinks at the other ends); a pair that shares a leaf or was met before swaps an end with
  // another pair, and stays out where no swap helps (a leaf of more than half the nodes).
  pair_round matching() {
    std::vector<std::size_t> order(m_group.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    shuffle_with(order, m_draw);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i + 1 < order.size(); i += 2)
      pairs.emplace_back(order[i], order[i + 1]);
    // Every node is in one pair of the list, so a swap makes no pair twice: only leaves and the
    // pairs of earlier rounds can make one invalid.
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      auto& [x, y] = pairs[i];
      const std::size_t start = m_draw() % pairs.size();
      for (std::size_t t = 0; t < pairs.size() && !valid(x, y); ++t) {
        auto& [u, v] = pairs[(start + t) % pairs.size()];
        if (&u == &x) continue;
        if (valid(x, v) && valid(u, y))
          std::swap(y, v);
        else if (valid(x, u) && valid(y, v))
          std::swap(y, u);
      }
    }
    pair_round round;
    for (const auto& [x, y] : pairs)
      if (valid(x, y)) use(round, x, y);
    return round;
  }

 private:
  const std::vector<std::size_t>& m_group;
  std::mt19937_64& m_draw;
  std::unordered_set<std::uint64_t> m_used;
};

}  // namespace

std::vector<pair_round> random_matchings(std::size_t nodes, std::size_t k, std::uint64_t seed,
                                         const std::vector<std::string>& leaves) {
  std::mt19937_64 draw(seed);
  std::vector<std::size_t> all(nodes);
  std::iota(all.begin(), all.end(), std::size_t{0});
  k = std::min(k, round_count(nodes));
  // Each node's group: its leaf, or a group of its own where the shape does not place it.
  std::vector<std::size_t> group(nodes);
  std::vector<std::vector<std::size_t>> groups;
  std::map<std::string, std::size_t> ids;
  std::size_t leaf_count = 0;
  for (std::size_t i = 0; i < nodes && leaves.size() == nodes; ++i) {
    if (leaves[i].empty()) {
      group[i] = groups.size();
      groups.push_back({i});
      continue;
    }
    const auto [it, added] = ids.emplace(leaves[i], groups.size());
    if (added) {
      groups.emplace_back();
      ++leaf_count;
    }
    group[i] = it->second;
    groups[it->second].push_back(i);
  }
  if (leaves.size() != nodes || leaf_count < 2) {
    return relabelled_rounds(all, k, draw);
  }

  // Topology-aware: ceil(K/2) matchings within leaves (a leaf's nodes against each other; a node
  // left over, in an odd leaf, against another leaf's), floor(K/2) across leaves, so each node's
  // figures with no uplink on the path and through it are told apart.
  const std::size_t within = k - k / 2;
  std::vector<pair_round> rounds(k);
  across_planner across(group, draw);
  std::vector<std::vector<pair_round>> leaf_rounds;
  for (const auto& members : groups)
    leaf_rounds.push_back(relabelled_rounds(members, within, draw));
  for (std::size_t r = 0; r < within; ++r) {
    std::vector<bool> busy(nodes, false);
    for (const auto& lr : leaf_rounds) {
      if (r >= lr.size()) continue;
      for (const auto& p : lr[r]) {
        busy[p.a] = busy[p.b] = true;
        rounds[r].push_back(p);
      }
    }
    across.note(rounds[r]);
    std::vector<std::size_t> idle;
    for (std::size_t i = 0; i < nodes; ++i)
      if (!busy[i]) idle.push_back(i);
    across.pair_up(std::move(idle), rounds[r]);
  }
  for (std::size_t r = within; r < k; ++r)
    rounds[r] = across.matching();
  return rounds;
}

std::vector<pair_round> split_rounds(const std::vector<pair_round>& rounds,
                                     std::size_t concurrency) {
  if (concurrency == 0) return rounds;
  std::vector<pair_round> out;
  for (const auto& round : rounds)
    for (std::size_t i = 0; i < round.size(); i += concurrency)
      out.emplace_back(
          round.begin() + static_cast<std::ptrdiff_t>(i),
          round.begin() + static_cast<std::ptrdiff_t>(std::min(round.size(), i + concurrency)));
  return out;
}

}  // namespace gpubench::core

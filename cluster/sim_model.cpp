#include "cluster/sim_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace gpubench::cluster {

namespace {

double uniform(std::mt19937_64& draw, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(draw);
}

// "send", "receive" or "" (both), a third each.
std::string any_way(std::mt19937_64& draw) {
  const auto w = draw() % 3;
  return w == 0 ? "send" : w == 1 ? "receive" : "";
}

}  // namespace

sim_model::sim_model(const sim_config& config, const std::vector<core::pair_round>& rounds,
                     std::mt19937_64& draw)
    : m_config(config),
      m_send(config.nodes, 1.0),
      m_receive(config.nodes, 1.0),
      m_leaf(config.nodes, 0),
      m_flapping(config.nodes, false),
      m_healthy(config.nodes, true) {
  const std::size_t n = config.nodes;
  const auto& f = config.faults;
  std::size_t leaf_count = 1;
  if (config.leaf_size > 0) {
    leaf_count = (n + config.leaf_size - 1) / config.leaf_size;
    for (std::size_t i = 0; i < n; ++i) {
      m_leaf[i] = i / config.leaf_size;
      m_leaf_names.push_back(leaf_name(m_leaf[i]));
    }
  }
  m_out.assign(leaf_count, 1.0);
  m_in.assign(leaf_count, 1.0);

  // Distinct nodes for the slow and the flapping ones.
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  for (std::size_t i = n; i > 1; --i)
    std::swap(order[i - 1], order[draw() % i]);
  std::size_t next = 0;
  for (std::size_t s = 0; s < f.slow_nodes && next < n; ++s, ++next) {
    const std::size_t node = order[next];
    planted_node p{node, any_way(draw), uniform(draw, f.node_deficit_min, f.node_deficit_max)};
    if (p.direction != "receive") m_send[node] = 1 - p.deficit;
    if (p.direction != "send") m_receive[node] = 1 - p.deficit;
    m_healthy[node] = false;
    m_slow_nodes.push_back(p);
  }
  for (std::size_t s = 0; s < f.flapping && next < n; ++s, ++next) {
    m_flapping[order[next]] = true;
    m_healthy[order[next]] = false;
  }
  std::set<std::size_t> slow_leaves;
  if (config.leaf_size > 0 && leaf_count > 1)
    for (std::size_t s = 0; s < f.slow_uplinks && s < leaf_count; ++s) {
      std::size_t leaf = draw() % leaf_count;
      while (slow_leaves.count(leaf))
        leaf = (leaf + 1) % leaf_count;
      slow_leaves.insert(leaf);
      planted_uplink u{leaf, any_way(draw),
                       uniform(draw, f.uplink_deficit_min, f.uplink_deficit_max)};
      if (u.direction != "receive") m_out[leaf] = 1 - u.deficit;
      if (u.direction != "send") m_in[leaf] = 1 - u.deficit;
      m_slow_uplinks.push_back(u);
    }

  // Slow links on measured pairs between healthy nodes, off slow uplinks, at most one per node.
  std::vector<core::node_pair> measured;
  for (const auto& round : rounds)
    measured.insert(measured.end(), round.begin(), round.end());
  std::set<std::size_t> used;
  for (std::size_t tries = 0;
       m_slow_links.size() < f.slow_links && tries < 100 * f.slow_links && !measured.empty();
       ++tries) {
    const auto p = measured[draw() % measured.size()];
    const bool crosses = m_leaf[p.a] != m_leaf[p.b];
    if (!m_healthy[p.a] || !m_healthy[p.b] || used.count(p.a) || used.count(p.b) ||
        (crosses && (slow_leaves.count(m_leaf[p.a]) || slow_leaves.count(m_leaf[p.b]))))
      continue;
    used.insert(p.a);
    used.insert(p.b);
    planted_link l{p.a, p.b, any_way(draw), uniform(draw, f.link_deficit_min, f.link_deficit_max)};
    if (l.direction != "receive") m_links[{p.a, p.b}] = 1 - l.deficit;
    if (l.direction != "send") m_links[{p.b, p.a}] = 1 - l.deficit;
    m_slow_links.push_back(l);
  }
}

double sim_model::figure(std::size_t from, std::size_t to, std::mt19937_64& draw) const {
  double capacity = std::min(m_send[from], m_receive[to]);
  if (const auto it = m_links.find({from, to}); it != m_links.end())
    capacity = std::min(capacity, it->second);
  if (m_leaf[from] != m_leaf[to])
    capacity = std::min({capacity, m_out[m_leaf[from]], m_in[m_leaf[to]]});
  for (const std::size_t end : {from, to})
    if (m_flapping[end] && uniform(draw, 0, 1) < m_config.faults.flap_share)
      capacity = std::min(capacity, 1 - m_config.faults.flap_deficit);
  const double noise = std::normal_distribution<double>(0, m_config.noise)(draw);
  return m_config.line_rate * capacity * std::exp(noise);
}

}  // namespace gpubench::cluster

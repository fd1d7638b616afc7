// A model fabric for the simulation of cluster mode's method (simulate.hpp): each node's capacity
// to send and to receive, each directed link's, each leaf's uplink out and in, nodes that flap,
// and noise; a pair's figure one way is the narrowest of what it crosses, times the noise. The
// faults are planted at random from a seed, and the model keeps them as the truth a verdict is
// scored against. No MPI, no measurement: numbers only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/cluster_schedule.hpp"

namespace gpubench::cluster {

// What is planted in one simulated cluster. Deficits are drawn uniformly from [min, max]; a
// fault is one way (send or receive, out of or into a leaf) or both, each a third of the time.
struct sim_faults {
  std::size_t slow_nodes = 8;
  double node_deficit_min = 0.05, node_deficit_max = 0.50;
  std::size_t slow_links = 8;  // on pairs the sweep measures (a link it skips is not seen)
  double link_deficit_min = 0.25, link_deficit_max = 0.75;
  std::size_t slow_uplinks = 1;  // only where leaves are known
  double uplink_deficit_min = 0.10, uplink_deficit_max = 0.50;
  std::size_t flapping = 2;    // nodes slow in some figures and not in others
  double flap_deficit = 0.40;  // ... by this much
  double flap_share = 0.5;     // ... in this share of their figures
};

struct sim_config {
  std::size_t nodes = 4096;
  std::size_t k = 4;           // matchings
  std::size_t leaf_size = 32;  // nodes per leaf switch; 0: the fabric's shape is not known
  double noise = 0.02;         // each figure times exp(noise x N(0, 1))
  double line_rate = 12.5;     // GB/s of a healthy path (100 Gbit/s)
  sim_faults faults;
};

// 'send', 'receive' or "" (both ways), as suspect::direction says it.
struct planted_node {
  std::size_t node = 0;
  std::string direction;
  double deficit = 0;
};
struct planted_link {
  std::size_t a = 0, b = 0;  // a < b
  std::string direction;     // "send": a -> b slow, "receive": b -> a slow, "": both
  double deficit = 0;
};
struct planted_uplink {
  std::size_t leaf = 0;
  std::string direction;  // "send": out of the leaf, "receive": into it, "": both
  double deficit = 0;
};

class sim_model {
 public:
  // Plants the faults of `config` with `draw`; slow links go on pairs of `rounds` whose ends are
  // healthy and whose path crosses no slow uplink, so each can be told from its ends.
  sim_model(const sim_config& config, const std::vector<core::pair_round>& rounds,
            std::mt19937_64& draw);

  // One figure of the pair from -> to (GB/s), drawn now.
  double figure(std::size_t from, std::size_t to, std::mt19937_64& draw) const;

  const std::vector<std::string>& leaves() const { return m_leaf_names; }
  const std::vector<planted_node>& slow_nodes() const { return m_slow_nodes; }
  const std::vector<planted_link>& slow_links() const { return m_slow_links; }
  const std::vector<planted_uplink>& slow_uplinks() const { return m_slow_uplinks; }
  bool flapping(std::size_t node) const { return m_flapping[node]; }
  bool healthy(std::size_t node) const { return m_healthy[node]; }
  std::string leaf_name(std::size_t leaf) const { return "leaf" + std::to_string(leaf); }

 private:
  sim_config m_config;
  std::vector<double> m_send, m_receive;  // capacity factors by node
  std::vector<std::size_t> m_leaf;        // by node (leaf_size 0: every node on leaf 0)
  std::vector<std::string> m_leaf_names;  // by node; empty when the shape is not known
  std::vector<double> m_out, m_in;        // uplink factors by leaf
  std::map<std::pair<std::size_t, std::size_t>, double> m_links;  // from -> to factors
  std::vector<bool> m_flapping, m_healthy;
  std::vector<planted_node> m_slow_nodes;
  std::vector<planted_link> m_slow_links;
  std::vector<planted_uplink> m_slow_uplinks;
};

}  // namespace gpubench::cluster

#include "cluster/simulate.hpp"

#include <map>
#include <set>

#include "cluster/confirm_plan.hpp"
#include "cluster/suspects.hpp"

namespace gpubench::cluster {

namespace {

constexpr std::uint64_t pair_bytes = 1 << 20;

nlohmann::json bandwidth_params(const std::string& direction) {
  return {{"streams", 1}, {"direction", direction}};
}

// The ways a pair is measured: both, or the one a second look asks for.
std::vector<std::string> ways(const std::string& direction) {
  if (!direction.empty()) return {direction};
  return {"to_peer", "from_peer"};
}

// The sender and receiver of pair a < b measured `direction` (to_peer: b sends to a).
std::pair<std::size_t, std::size_t> sender_receiver(std::size_t a, std::size_t b,
                                                    const std::string& direction) {
  return direction == "to_peer" ? std::make_pair(b, a) : std::make_pair(a, b);
}

core::pair_measurement bandwidth_measurement(const std::string& direction, std::size_t slots) {
  core::pair_measurement m;
  m.benchmark = "net.tcp.bandwidth";
  m.params = bandwidth_params(direction);
  m.bytes = pair_bytes;
  m.metric = "bandwidth";
  m.unit = "GB/s";
  m.better = "higher";
  m.median.assign(slots, std::nullopt);
  m.p99.assign(slots, std::nullopt);
  m.count.assign(slots, 5);
  return m;
}

std::vector<std::string> planned_leaves(const sim_config& config) {
  std::vector<std::string> leaves;
  if (config.leaf_size > 0)
    for (std::size_t i = 0; i < config.nodes; ++i)
      leaves.push_back("leaf" + std::to_string(i / config.leaf_size));
  return leaves;
}

// The second look as the launch runs it: the plan's pairs, each the way it asks, drawn from the
// same model at another moment.
std::size_t measure_again(core::cluster_section& c, const sim_model& model, std::mt19937_64& draw,
                          std::size_t& figures) {
  const auto plan = plan_confirmation(c);
  core::cluster_confirmation k;
  k.complete = true;
  k.candidates = plan.candidates;
  for (const auto& step : plan.steps)
    for (const auto& p : step) {
      core::confirm_pair got{p.a, p.b, p.for_node, {}};
      for (const auto& w : ways(p.direction)) {
        const auto [from, to] = sender_receiver(p.a, p.b, w);
        const double x = model.figure(from, to, draw);
        got.figures.push_back(
            {"net.tcp.bandwidth", bandwidth_params(w), pair_bytes, x, x * 1.05, 5});
        ++figures;
      }
      k.pairs.push_back(std::move(got));
    }
  c.confirmation = std::move(k);
  return plan.steps.size() + (plan.local.empty() ? 0 : 1);
}

}  // namespace

simulated_sweep simulate(const sim_config& config, std::uint64_t seed) {
  std::mt19937_64 draw(seed ^ 0x9e3779b97f4a7c15ULL);
  const auto leaves = planned_leaves(config);
  const auto rounds = core::random_matchings(config.nodes, config.k, seed, leaves);
  simulated_sweep sweep{sim_model(config, rounds, draw), {}, 0};

  core::cluster_section c;
  for (std::size_t i = 0; i < config.nodes; ++i) {
    core::cluster_node node;
    node.name = "n" + std::to_string(i);
    node.ranks = {static_cast<int>(i)};
    c.nodes.push_back(std::move(node));
  }
  c.rounds = rounds.size();
  c.plan = {"matchings", config.k, seed};
  c.leaves = leaves;
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const auto& p : rounds[r])
      c.pair_list.push_back({p.a, p.b, r});
  std::size_t figures = 0;
  for (const std::string w : {"to_peer", "from_peer"}) {
    auto m = bandwidth_measurement(w, c.pair_list.size());
    for (std::size_t i = 0; i < c.pair_list.size(); ++i) {
      const auto [from, to] = sender_receiver(c.pair_list[i].a, c.pair_list[i].b, w);
      const double x = sweep.model.figure(from, to, draw);
      m.median[i] = x;
      m.p99[i] = x * 1.05;
      ++figures;
    }
    c.pairs.push_back(std::move(m));
  }
  sweep.second_steps = measure_again(c, sweep.model, draw, figures);
  sweep.file.cluster = std::move(c);
  sweep.figures = figures;
  return sweep;
}

sweep_outcome score(const simulated_sweep& sweep) {
  const auto& c = *sweep.file.cluster;
  const auto& model = sweep.model;
  sweep_outcome o;
  o.rounds = c.rounds + sweep.second_steps;
  o.second_steps = sweep.second_steps;
  o.figures = sweep.figures;

  std::map<std::string, std::size_t> node_of;
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    node_of[c.nodes[i].name] = i;
  std::map<std::size_t, const planted_node*> slow;
  for (const auto& p : model.slow_nodes())
    slow[p.node] = &p;
  std::set<std::pair<std::size_t, std::size_t>> links;
  for (const auto& l : model.slow_links())
    links.insert({l.a, l.b});
  std::set<std::string> uplinks;
  for (const auto& u : model.slow_uplinks())
    uplinks.insert(model.leaf_name(u.leaf));

  std::set<std::size_t> found_nodes, flapping_named;
  std::set<std::pair<std::size_t, std::size_t>> found_links;
  std::set<std::string> found_uplinks;
  for (const auto& s : judge(sweep.file).named) {
    if (s.kind == suspect_kind::uplink) {
      ++o.named_uplinks;
      if (uplinks.count(s.node))
        found_uplinks.insert(s.node);
      else
        ++o.wrong_uplinks;
      continue;
    }
    const std::size_t x = node_of.at(s.node);
    if (s.kind == suspect_kind::node) {
      ++o.named_nodes;
      if (const auto it = slow.find(x); it != slow.end()) {
        found_nodes.insert(x);
        if (s.direction == it->second->direction) ++o.nodes_way_right;
      } else if (model.flapping(x)) {
        flapping_named.insert(x);
      } else {
        ++o.healthy_nodes_named;
      }
      continue;
    }
    ++o.named_links;
    const std::size_t y = node_of.at(s.peer);
    const auto key = std::minmax(x, y);
    if (links.count(key))
      found_links.insert(key);
    else if (model.flapping(x) || model.flapping(y))
      flapping_named.insert(model.flapping(x) ? x : y);
    else
      ++o.wrong_links;
  }
  for (const auto& p : model.slow_nodes()) {
    const bool found = found_nodes.count(p.node) > 0;
    if (p.deficit >= 0.1) {
      ++o.slow_nodes;
      o.slow_nodes_found += found;
    } else {
      ++o.mild_nodes;
      o.mild_nodes_found += found;
    }
  }
  o.slow_links = links.size();
  o.slow_links_found = found_links.size();
  o.slow_uplinks = uplinks.size();
  o.slow_uplinks_found = found_uplinks.size();
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    o.flapping += model.flapping(i);
  o.flapping_named = flapping_named.size();
  // The same figures judged in one pass, as a file without a second look would be.
  auto one_pass = sweep.file;
  one_pass.cluster->confirmation.reset();
  for (const auto& s : find_suspects(one_pass)) {
    if (s.kind != suspect_kind::node) continue;
    const std::size_t x = node_of.at(s.node);
    o.healthy_one_pass += !slow.count(x) && !model.flapping(x);
  }
  return o;
}

void sim_summary::add(const sweep_outcome& o) {
  ++sweeps;
  max_rounds = std::max(max_rounds, o.rounds);
  auto& t = total;
  t.rounds += o.rounds;
  t.second_steps += o.second_steps;
  t.figures += o.figures;
  t.named_nodes += o.named_nodes;
  t.named_links += o.named_links;
  t.named_uplinks += o.named_uplinks;
  t.slow_nodes += o.slow_nodes;
  t.slow_nodes_found += o.slow_nodes_found;
  t.mild_nodes += o.mild_nodes;
  t.mild_nodes_found += o.mild_nodes_found;
  t.nodes_way_right += o.nodes_way_right;
  t.slow_links += o.slow_links;
  t.slow_links_found += o.slow_links_found;
  t.slow_uplinks += o.slow_uplinks;
  t.slow_uplinks_found += o.slow_uplinks_found;
  t.flapping += o.flapping;
  t.flapping_named += o.flapping_named;
  t.healthy_nodes_named += o.healthy_nodes_named;
  t.healthy_one_pass += o.healthy_one_pass;
  t.wrong_links += o.wrong_links;
  t.wrong_uplinks += o.wrong_uplinks;
}

}  // namespace gpubench::cluster

#include "cluster/pair_edges.hpp"

#include <map>

#include "cluster/first_look.hpp"
#include "cluster/robust.hpp"
#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"
#include "core/text_format.hpp"

namespace gpubench::cluster {

std::string direction_word(role r) {
  return r == role::send ? "send" : r == role::receive ? "receive" : "";
}

std::string role_prefix(role r) {
  return r == role::send ? "slow to send: " : r == role::receive ? "slow to receive: " : "";
}

way way_of(const nlohmann::json& params) {
  if (!params.is_object()) return way::both;
  const auto it = params.find("direction");
  if (it == params.end() || !it->is_string()) return way::both;
  const auto& d = it->get_ref<const std::string&>();
  return d == "to_peer" ? way::to_peer : d == "from_peer" ? way::from_peer : way::both;
}

nlohmann::json without_way(const nlohmann::json& params) {
  if (way_of(params) == way::both) return params;
  nlohmann::json out = params;
  out.erase("direction");
  return out;
}

std::pair<std::size_t, std::size_t> ends_of(std::size_t a, std::size_t b, way w) {
  // to_peer: the measuring end b sends to the serving end a.
  return w == way::to_peer ? std::make_pair(b, a) : std::make_pair(a, b);
}

namespace {

// The (sub-)round of every slot: a sparse sweep lists it; a dense one is the circle method's
// schedule, a pure function of the node count and the recorded concurrency cap.
std::vector<std::uint32_t> slot_rounds(const core::cluster_section& c) {
  std::vector<std::uint32_t> out(core::slot_count(c), 0);
  if (!c.pair_list.empty()) {
    for (std::size_t i = 0; i < c.pair_list.size(); ++i)
      out[i] = static_cast<std::uint32_t>(c.pair_list[i].round);
    return out;
  }
  const std::size_t n = c.nodes.size();
  const auto rounds = core::split_rounds(core::round_robin(n), c.concurrency);
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const auto& p : rounds[r])
      out[core::pair_index(p.a, p.b, n)] = static_cast<std::uint32_t>(r);
  return out;
}

// Calls fn(slot, a, b) for every slot whose ends both answered.
template <typename Fn>
void for_each_slot(const core::cluster_section& c, Fn&& fn) {
  const std::size_t n = c.nodes.size();
  if (c.pair_list.empty()) {
    for (std::size_t a = 0, i = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b, ++i)
        if (node_answered(c.nodes[a]) && node_answered(c.nodes[b])) fn(i, a, b);
    return;
  }
  for (std::size_t i = 0; i < c.pair_list.size(); ++i) {
    const auto& p = c.pair_list[i];
    if (p.a < n && p.b < n && p.a != p.b && node_answered(c.nodes[p.a]) &&
        node_answered(c.nodes[p.b]))
      fn(i, std::min(p.a, p.b), std::max(p.a, p.b));
  }
}

// The stable-point rule for pairs: where the typical pair's p99 is many times its median, the
// round trips waited for a CPU (a busy node, scheduling), not for the path.
bool steady(const core::pair_measurement& m, const suspect_options& options,
            std::vector<std::string>& unsteady) {
  std::vector<double> tails;
  for (std::size_t i = 0; i < m.median.size() && i < m.p99.size(); ++i)
    if (m.median[i] && m.p99[i] && *m.median[i] > 0) tails.push_back(*m.p99[i] / *m.median[i]);
  const double typical = median_of(tails);
  if (tails.empty() || typical <= options.max_pair_tail) return true;
  unsteady.push_back(case_label(m.benchmark, m.params, m.bytes) + ": the typical pair's p99 is " +
                     core::format_ratio(typical) + " its median");
  return false;
}

}  // namespace

std::vector<pair_group> pair_groups(const core::cluster_section& c, const suspect_options& options,
                                    std::vector<std::string>& unsteady) {
  std::vector<pair_group> groups;
  std::map<std::string, std::size_t> index;
  const std::size_t slots = core::slot_count(c);
  std::vector<std::uint32_t> rounds;
  for (const auto& m : c.pairs) {
    if (m.median.size() != slots || !steady(m, options, unsteady)) continue;
    if (rounds.empty()) rounds = slot_rounds(c);
    const way w = way_of(m.params);
    const nlohmann::json params = without_way(m.params);
    const std::string key = m.benchmark + "|" + params.dump() + "|" + std::to_string(m.bytes) +
                            (w == way::both ? "|both" : "|way");
    auto [it, added] = index.emplace(key, groups.size());
    if (added) {
      pair_group g;
      g.benchmark = m.benchmark;
      g.params = params;
      g.bytes = m.bytes;
      g.unit = m.unit;
      g.higher_is_better = m.better != "lower";
      g.directed = w != way::both;
      g.label = case_label(m.benchmark, params, m.bytes);
      groups.push_back(std::move(g));
    }
    auto& g = groups[it->second];
    const auto which = static_cast<std::uint32_t>(g.measurements.size());
    g.measurements.push_back(&m);
    for_each_slot(c, [&](std::size_t i, std::size_t a, std::size_t b) {
      if (!m.median[i]) return;
      const auto [from, to] = ends_of(a, b, w);
      g.edges.push_back({static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to),
                         *m.median[i], rounds[i], which});
    });
  }
  return groups;
}

}  // namespace gpubench::cluster

#include "reports/cluster/pair_figures.hpp"

#include <algorithm>

#include "cluster/robust.hpp"
#include "core/cluster.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::cluster {

namespace {

std::string direction_of(const core::pair_measurement& m) {
  const auto d = m.params.find("direction");
  return d != m.params.end() && d->is_string() ? d->get<std::string>() : "";
}

// The measurement's identity without its direction: what its other way must share.
nlohmann::json without_direction(const core::pair_measurement& m) {
  nlohmann::json p = m.params;
  if (p.is_object()) p.erase("direction");
  return p;
}

bool other_way(const core::pair_measurement& a, const core::pair_measurement& b) {
  return a.benchmark == b.benchmark && a.bytes == b.bytes && a.unit == b.unit &&
         without_direction(a) == without_direction(b);
}

std::string label_of(const core::pair_measurement& m, bool directed) {
  const std::string p = model::params_text(directed ? without_direction(m) : m.params);
  return m.benchmark + " " + model::format_size(m.bytes) + (p.empty() ? "" : " (" + p + ")");
}

}  // namespace

std::vector<pair_view> pair_views(const core::cluster_section& c) {
  std::vector<pair_view> out;
  std::vector<bool> used(c.pairs.size(), false);
  for (std::size_t i = 0; i < c.pairs.size(); ++i) {
    if (used[i]) continue;
    const auto& m = c.pairs[i];
    pair_view v;
    v.forward = &m;
    const std::string way = direction_of(m);
    if (m.metric == "bandwidth" && (way == "to_peer" || way == "from_peer")) {
      const std::string wanted = way == "to_peer" ? "from_peer" : "to_peer";
      for (std::size_t j = i + 1; j < c.pairs.size(); ++j)
        if (!used[j] && direction_of(c.pairs[j]) == wanted && other_way(m, c.pairs[j])) {
          used[j] = true;
          v.forward = way == "to_peer" ? &m : &c.pairs[j];
          v.backward = way == "to_peer" ? &c.pairs[j] : &m;
          break;
        }
    }
    v.label = label_of(m, v.directed());
    out.push_back(v);
  }
  return out;
}

std::vector<pair_cell> view_cells(const core::cluster_section& c, const pair_view& v) {
  std::vector<pair_cell> out;
  const std::size_t slots = core::slot_count(c);
  auto add = [&](const core::pair_measurement& m, bool reversed) {
    for (std::size_t s = 0; s < std::min(slots, m.median.size()); ++s) {
      if (!m.median[s]) continue;
      const core::planned_pair p = core::slot_pair(c, s);
      // to_peer: b sends to a; from_peer (and a symmetric view): a to b.
      out.push_back(reversed ? pair_cell{p.b, p.a, *m.median[s]}
                             : pair_cell{p.a, p.b, *m.median[s]});
    }
  };
  add(*v.forward, v.directed());
  if (v.directed()) add(*v.backward, false);
  return out;
}

node_medians view_node_medians(const core::cluster_section& c, const pair_view& v) {
  const std::size_t n = c.nodes.size();
  std::vector<std::vector<double>> sent(n), received(n);
  for (const auto& cell : view_cells(c, v)) {
    if (cell.from >= n || cell.to >= n) continue;
    if (!gpubench::cluster::node_answered(c.nodes[cell.from]) ||
        !gpubench::cluster::node_answered(c.nodes[cell.to]))
      continue;
    sent[cell.from].push_back(cell.value);
    (v.directed() ? received : sent)[cell.to].push_back(cell.value);
  }
  node_medians out;
  out.sends.resize(n);
  out.receives.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!sent[i].empty()) out.sends[i] = gpubench::cluster::median_of(std::move(sent[i]));
    if (!received[i].empty())
      out.receives[i] = gpubench::cluster::median_of(std::move(received[i]));
  }
  return out;
}

std::size_t measured_pairs(const core::cluster_section& c) {
  std::vector<bool> seen(core::slot_count(c), false);
  for (const auto& m : c.pairs)
    for (std::size_t s = 0; s < std::min(seen.size(), m.median.size()); ++s)
      if (m.median[s]) seen[s] = true;
  return static_cast<std::size_t>(std::count(seen.begin(), seen.end(), true));
}

}  // namespace gpubench::reports::cluster

#include "cluster/reproduce.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "core/text_format.hpp"

namespace gpubench::cluster {

namespace {

// A node's second figure (and its samples' spread) at the finding's local point.
struct second_point {
  double median = 0;
  std::optional<double> spread;
};

std::optional<second_point> second_local_figure(const core::confirm_node& n, const finding& f) {
  for (const auto& r : n.results) {
    if (r.status != core::case_status::ok || r.benchmark != f.benchmark || r.params != f.params)
      continue;
    for (const auto& p : r.points)
      if (p.bytes == f.bytes && std::isfinite(p.stats.median))
        return second_point{p.stats.median, relative_spread(p.samples)};
  }
  return std::nullopt;
}

// A second figure of the finding's quantity, with its sender and receiver: a one-way case's
// figures are the finding's group whichever way they ran (its params without the way).
struct second_edge {
  std::size_t from = 0, to = 0;
  double value = 0;
};

std::vector<second_edge> figures_of(const core::confirm_pair& p, const finding& f) {
  std::vector<second_edge> out;
  for (const auto& x : p.figures) {
    if (x.benchmark != f.benchmark || x.bytes != f.bytes) continue;
    const way w = way_of(x.params);
    if ((w != way::both) != f.directed || without_way(x.params) != f.params) continue;
    const auto [from, to] = ends_of(p.a, p.b, w);
    out.push_back({from, to, x.median});
  }
  return out;
}

bool in_side(const second_edge& e, role r, std::size_t node) {
  return in_role(
      edge{static_cast<std::uint32_t>(e.from), static_cast<std::uint32_t>(e.to), 0, 0, 0}, r, node);
}

std::string ratio(double value, const reference& ref) {
  return ref.median > 0 ? " (" + core::format_ratio(value / ref.median) + ")" : "";
}

again verdict(double value, bool reproduced, std::string words) {
  return {reproduced ? second_look::confirmed : second_look::not_reproduced, value,
          std::move(words) + (reproduced ? ": reproduced" : ": not reproduced")};
}

}  // namespace

again node_again(const core::cluster_section& c, std::size_t node, const finding& f,
                 const suspect_options& options) {
  if (!c.confirmation) return {};
  const auto& k = *c.confirmation;
  if (f.local) {
    // The second look ran the point on every node at once: the candidate is judged against
    // that fresh cluster, at the same moment, with the first look's rules.
    std::optional<double> x;
    std::vector<double> values, spreads;
    for (const auto& n : k.nodes) {
      if (n.node >= c.nodes.size() || !node_answered(c.nodes[n.node])) continue;
      const auto p = second_local_figure(n, f);
      if (!p) continue;
      values.push_back(p->median);
      if (p->spread) spreads.push_back(*p->spread);
      if (n.node == node) x = p->median;
    }
    if (!x) return {};
    std::string words = "again " + core::format_value(*x) + " " + f.unit + ratio(*x, f.ref);
    if (values.size() < min_nodes_for_verdict)  // too few beside it: the first look's cluster
      return verdict(*x, f.ref.is_outlier(*x, options), std::move(words));
    const reference now = make_reference(values, f.ref.higher_is_better);
    words += ", cluster median again " + core::format_value(now.median) + " " + f.unit + " (" +
             std::to_string(values.size()) + " nodes)";
    if (!spreads.empty() && median_of(spreads) > options.max_local_spread)
      return verdict(*x, false, std::move(words) + ", unsteady");
    return verdict(*x, now.is_outlier(*x, options), std::move(words));
  }
  // A node slow by its pairs: its figures that way against partners seen healthy. It reproduces
  // when their median falls short of the first look's pairs by the node floor and is an outlier
  // against them, their spread scaled to a median of as many figures (a median of n figures
  // scatters about 1.25 / sqrt(n) as much as one figure): on a quiet fabric a node 10% slow
  // shows in 3 figures, on a loaded one a healthy node's 3 figures do not make it slow.
  std::vector<double> values;
  std::size_t slow = 0;
  const double floor = node_floor(options, f.ref.higher_is_better);
  for (const auto& p : k.pairs) {
    if (p.for_node != node) continue;
    for (const auto& e : figures_of(p, f)) {
      if (!in_side(e, f.side, node)) continue;
      values.push_back(e.value);
      if (f.ref.falls_short(e.value, floor)) ++slow;
    }
  }
  if (values.empty()) return {};
  const double m = median_of(values);
  reference of_median = f.ref;
  of_median.log_mad *= std::min(1.0, 1.2533 / std::sqrt(static_cast<double>(values.size())));
  const bool reproduced = of_median.is_outlier(m, options.deviation, floor);
  const std::string how = f.side == role::send      ? "again sending to "
                          : f.side == role::receive ? "again receiving from "
                                                    : "again against ";
  return verdict(m, reproduced,
                 how + std::to_string(values.size()) + " other partner(s): median " +
                     core::format_value(m) + " " + f.unit + ratio(m, f.ref) + ", " +
                     std::to_string(slow) + " of " + std::to_string(values.size()) + " slow");
}

again link_again(const core::cluster_section& c, std::size_t a, std::size_t b, const finding& f,
                 const suspect_options& options) {
  if (!c.confirmation) return {};
  // The way that was slow: the first end sending (role::send) or receiving.
  const std::size_t from = f.side == role::receive ? b : a;
  for (const auto& p : c.confirmation->pairs) {
    if (p.for_node || p.a != a || p.b != b) continue;
    for (const auto& e : figures_of(p, f)) {
      if (f.directed && e.from != from) continue;
      return verdict(e.value, f.ref.is_outlier(e.value, options),
                     "again " + core::format_value(e.value) + " " + f.unit + ratio(e.value, f.ref));
    }
  }
  return {};
}

}  // namespace gpubench::cluster

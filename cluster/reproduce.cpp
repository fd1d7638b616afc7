#include "cluster/reproduce.hpp"

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

std::optional<double> figure_of(const core::confirm_pair& p, const finding& f) {
  for (const auto& x : p.figures)
    if (x.benchmark == f.benchmark && x.params == f.params && x.bytes == f.bytes) return x.median;
  return std::nullopt;
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
  std::vector<double> values;
  std::size_t slow = 0;
  for (const auto& p : k.pairs) {
    if (p.for_node != node) continue;
    if (const auto x = figure_of(p, f)) {
      values.push_back(*x);
      if (f.ref.is_outlier(*x, options)) ++slow;
    }
  }
  if (values.empty()) return {};
  const double m = median_of(values);
  const bool reproduced =
      static_cast<double>(slow) > options.pair_share * static_cast<double>(values.size());
  return verdict(m, reproduced,
                 "again against " + std::to_string(values.size()) + " other partner(s): median " +
                     core::format_value(m) + " " + f.unit + ratio(m, f.ref) + ", " +
                     std::to_string(slow) + " of " + std::to_string(values.size()) + " slow");
}

again link_again(const core::cluster_section& c, std::size_t a, std::size_t b, const finding& f,
                 const suspect_options& options) {
  if (!c.confirmation) return {};
  for (const auto& p : c.confirmation->pairs) {
    if (p.for_node || p.a != a || p.b != b) continue;
    if (const auto x = figure_of(p, f))
      return verdict(*x, f.ref.is_outlier(*x, options),
                     "again " + core::format_value(*x) + " " + f.unit + ratio(*x, f.ref));
  }
  return {};
}

}  // namespace gpubench::cluster

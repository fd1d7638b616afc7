#include "cluster/reproduce.hpp"

#include <cmath>
#include <optional>
#include <vector>

#include "core/text_format.hpp"

namespace gpubench::cluster {

namespace {

// The node's figure for the finding's local point in the second look.
std::optional<double> second_local_figure(const core::cluster_confirmation& k, std::size_t node,
                                          const finding& f) {
  for (const auto& n : k.nodes) {
    if (n.node != node) continue;
    for (const auto& r : n.results) {
      if (r.status != core::case_status::ok || r.benchmark != f.benchmark || r.params != f.params)
        continue;
      for (const auto& p : r.points)
        if (p.bytes == f.bytes && std::isfinite(p.stats.median)) return p.stats.median;
    }
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
    const auto x = second_local_figure(k, node, f);
    if (!x) return {};
    std::string words = "again " + core::format_value(*x) + " " + f.unit + ratio(*x, f.ref);
    bool reproduced = f.ref.is_outlier(*x, options);
    // The healthy node measured at the same moment: a machine busier than in the first pass
    // slows it as much, and the candidate must still be worse than it by the relative floor.
    if (k.reference && *k.reference != node) {
      if (const auto r = second_local_figure(k, *k.reference, f)) {
        reference beside;
        beside.median = *r;
        beside.higher_is_better = f.ref.higher_is_better;
        const double floor =
            f.ref.higher_is_better ? options.min_change : options.min_latency_change;
        reproduced = reproduced && beside.bad_change(*x) >= floor;
        words += ", beside it " + c.nodes[*k.reference].name + " " + core::format_value(*r) + " " +
                 f.unit;
      }
    }
    return verdict(*x, reproduced, std::move(words));
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

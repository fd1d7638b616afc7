// The findings of one pass over a cluster run (first_look.hpp): the node-local points here, the
// pair groups in pair_look.cpp and uplinks.cpp; docs/cluster.md "The verdict: suspects" is the
// method in words. O(nodes + pairs) per measurement, apart from the selection inside each median.
#include "cluster/first_look.hpp"

#include <algorithm>
#include <cmath>

#include "cluster/pair_look.hpp"
#include "cluster/uplinks.hpp"
#include "core/text_format.hpp"

namespace gpubench::cluster {

std::string against(double value, double median, const std::string& unit,
                    const std::string& after_value) {
  return core::format_value(value) + " " + unit + after_value + ", cluster median " +
         core::format_value(median) + " " + unit + " (" +
         (median > 0 ? core::format_ratio(value / median) : std::string("-")) + ")";
}

finding make_finding(const std::string& benchmark, const nlohmann::json& params,
                     std::uint64_t bytes, double value, const reference& ref,
                     const std::string& unit) {
  finding f;
  f.benchmark = benchmark;
  f.params = params;
  f.bytes = bytes;
  f.value = value;
  f.ref = ref;
  f.unit = unit;
  return f;
}

std::string case_label(const std::string& benchmark, const nlohmann::json& params,
                       std::uint64_t bytes) {
  const std::string p = core::params_text(params);
  return benchmark + " " + core::format_size(bytes) + (p.empty() ? "" : " (" + p + ")");
}

namespace {

// (a) Node-local results: for every case and size that most answering nodes measured, and
// where the measurement is stable, the nodes whose median is an outlier among the nodes.
void local_findings(const core::cluster_section& c, const suspect_options& options,
                    first_look& out) {
  struct entry {
    std::size_t node;
    double value;
    std::optional<double> spread;  // the relative spread of the node's samples
  };
  struct local_case {
    std::string benchmark, label, unit;
    nlohmann::json params;
    std::uint64_t bytes = 0;
    bool higher_is_better = true;
    std::vector<entry> entries;
  };
  std::map<std::string, local_case> cases;
  std::size_t answered = 0;
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    if (!node_answered(c.nodes[i])) continue;
    ++answered;
    for (const auto& r : c.nodes[i].results) {
      if (r.status != core::case_status::ok) continue;
      for (const auto& p : r.points) {
        if (!std::isfinite(p.stats.median)) continue;
        const std::string key = r.benchmark + "|" + r.params.dump() + "|" + std::to_string(p.bytes);
        auto& lc = cases[key];
        if (lc.entries.empty()) {
          lc.benchmark = r.benchmark;
          lc.params = r.params;
          lc.bytes = p.bytes;
          lc.label = case_label(r.benchmark, r.params, p.bytes);
          lc.unit = r.unit;
          lc.higher_is_better = r.better != "lower";
        }
        lc.entries.push_back({i, p.stats.median, relative_spread(p.samples)});
      }
    }
  }
  if (answered < min_nodes_for_verdict) return;
  for (const auto& [key, lc] : cases) {
    if (lc.entries.size() * 2 <= answered || lc.entries.size() < min_nodes_for_verdict) continue;
    // The stable-point rule: where the typical node's own samples scatter by more than
    // max_local_spread, the point measures the moment (thread wake-ups, start-up on a busy
    // machine), not the node, and makes no suspect.
    std::vector<double> spreads;
    for (const auto& e : lc.entries)
      if (e.spread) spreads.push_back(*e.spread);
    if (const double typical = median_of(spreads);
        !spreads.empty() && typical > options.max_local_spread) {
      out.unsteady.push_back(lc.label + ": the typical node's samples scatter by " +
                             core::format_value(typical * 100) + "%");
      continue;
    }
    std::vector<double> values;
    values.reserve(lc.entries.size());
    for (const auto& e : lc.entries)
      values.push_back(e.value);
    const reference ref = make_reference(values, lc.higher_is_better);
    for (const auto& e : lc.entries) {
      if (!ref.is_outlier(e.value, options)) continue;
      auto f = make_finding(lc.benchmark, lc.params, lc.bytes, e.value, ref, lc.unit);
      f.local = true;
      f.text = lc.label + ": " + against(e.value, ref.median, lc.unit) + " over " +
               std::to_string(lc.entries.size()) + " nodes";
      out.nodes[e.node].push_back(std::move(f));
    }
  }
}

}  // namespace

first_look look_once(const core::cluster_section& c, const suspect_options& options) {
  first_look out;
  local_findings(c, options, out);
  const auto answered = static_cast<std::size_t>(std::count_if(
      c.nodes.begin(), c.nodes.end(), [](const auto& node) { return node_answered(node); }));
  if (answered < min_nodes_for_verdict) return out;
  for (auto& g : pair_groups(c, options, out.unsteady)) {
    explain_uplinks(c, g, options, out);
    pair_findings(c, g, options, out);
  }
  return out;
}

}  // namespace gpubench::cluster

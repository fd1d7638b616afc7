// The verdict of a cluster run (suspects.hpp); docs/cluster.md "The verdict: suspects" is the
// method in words. Everything here is O(nodes + pairs) per measurement, apart from the
// selection inside each median.
#include "cluster/suspects.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "cluster/robust.hpp"
#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"
#include "core/text_format.hpp"

namespace gpubench::cluster {

namespace {

// One measurement that points at a node or a link.
struct finding {
  std::string benchmark;
  double value = 0;
  double median = 0;
  std::string unit;
  double change = 0;  // relative change in the bad direction: orders the findings
  std::string text;
};

using findings_by_node = std::map<std::size_t, std::vector<finding>>;
using findings_by_link = std::map<std::pair<std::size_t, std::size_t>, std::vector<finding>>;

std::string against(double value, double median, const std::string& unit) {
  return core::format_value(value) + " " + unit + ", cluster median " + core::format_value(median) +
         " " + unit + " (" + (median > 0 ? core::format_ratio(value / median) : std::string("-")) +
         ")";
}

std::string case_label(const std::string& benchmark, const nlohmann::json& params,
                       std::uint64_t bytes) {
  const std::string p = core::params_text(params);
  return benchmark + " " + core::format_size(bytes) + (p.empty() ? "" : " (" + p + ")");
}

// (a) Node-local results: for every case and size that most answering nodes measured, the
// nodes whose median is an outlier among the nodes.
void local_findings(const core::cluster_section& c, const suspect_options& options,
                    findings_by_node& out) {
  struct entry {
    std::size_t node;
    double value;
  };
  struct local_case {
    std::string benchmark, label, unit;
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
          lc.label = case_label(r.benchmark, r.params, p.bytes);
          lc.unit = r.unit;
          lc.higher_is_better = r.better != "lower";
        }
        lc.entries.push_back({i, p.stats.median});
      }
    }
  }
  if (answered < min_nodes_for_verdict) return;
  for (const auto& [key, lc] : cases) {
    if (lc.entries.size() * 2 <= answered || lc.entries.size() < min_nodes_for_verdict) continue;
    std::vector<double> values;
    values.reserve(lc.entries.size());
    for (const auto& e : lc.entries)
      values.push_back(e.value);
    const reference ref = make_reference(values, lc.higher_is_better);
    for (const auto& e : lc.entries) {
      if (!ref.is_outlier(e.value, options)) continue;
      out[e.node].push_back({lc.benchmark, e.value, ref.median, lc.unit, ref.bad_change(e.value),
                             lc.label + ": " + against(e.value, ref.median, lc.unit) + " over " +
                                 std::to_string(lc.entries.size()) + " nodes"});
    }
  }
}

// The sub-round of the schedule each pair was measured in: the schedule is a pure function of the
// node count and the concurrency cap the file records.
struct schedule_map {
  std::vector<core::pair_round> rounds;
  std::vector<std::size_t> round_of;  // by pair_index
};

schedule_map rounds_by_pair(const core::cluster_section& c) {
  const std::size_t n = c.nodes.size();
  schedule_map s{core::split_rounds(core::round_robin(n), c.concurrency),
                 std::vector<std::size_t>(core::pair_count(n), 0)};
  for (std::size_t r = 0; r < s.rounds.size(); ++r)
    for (const auto& p : s.rounds[r])
      s.round_of[core::pair_index(p.a, p.b, n)] = r;
  return s;
}

// (b) One pair measurement: nodes most of whose pairs are outliers, then single slow pairs
// between nodes that are fine with everyone else.
void pair_findings(const core::cluster_section& c, const core::pair_measurement& m,
                   const schedule_map& schedule, const suspect_options& options,
                   findings_by_node& nodes, findings_by_link& links) {
  const std::size_t n = c.nodes.size();
  if (m.median.size() != core::pair_count(n)) return;
  const auto answered = static_cast<std::size_t>(std::count_if(
      c.nodes.begin(), c.nodes.end(), [](const auto& node) { return node_answered(node); }));
  if (answered < min_nodes_for_verdict) return;
  const bool higher = m.better != "lower";
  const std::string label = case_label(m.benchmark, m.params, m.bytes);

  // Candidates: nodes whose median pair is an outlier among the nodes' medians. They are left
  // out of the pair reference, so a slow node's N-1 slow pairs do not widen the spread.
  const auto scores = node_pair_medians(c, m);
  std::vector<double> score_values;
  for (const auto& s : scores)
    if (s) score_values.push_back(*s);
  const reference score_ref = make_reference(score_values, higher);
  std::vector<bool> candidate(n, false);
  for (std::size_t a = 0; a < n; ++a)
    candidate[a] = scores[a] && score_ref.is_outlier(*scores[a], options);

  std::vector<double> clean, all;
  for (std::size_t a = 0, i = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b, ++i) {
      if (!m.median[i] || !node_answered(c.nodes[a]) || !node_answered(c.nodes[b])) continue;
      all.push_back(*m.median[i]);
      if (!candidate[a] && !candidate[b]) clean.push_back(*m.median[i]);
    }
  if (all.empty()) return;
  const reference ref = make_reference(clean.empty() ? all : clean, higher);

  std::vector<std::size_t> measured(n, 0), slow(n, 0);
  for (std::size_t a = 0, i = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b, ++i) {
      if (!m.median[i] || !node_answered(c.nodes[a]) || !node_answered(c.nodes[b])) continue;
      ++measured[a];
      ++measured[b];
      if (ref.is_outlier(*m.median[i], options)) {
        ++slow[a];
        ++slow[b];
      }
    }
  std::vector<bool> slow_node(n, false);
  for (std::size_t a = 0; a < n; ++a) {
    if (measured[a] == 0 ||
        static_cast<double>(slow[a]) <= options.pair_share * static_cast<double>(measured[a]))
      continue;
    slow_node[a] = true;
    const double v = scores[a].value_or(ref.median);
    nodes[a].push_back({m.benchmark, v, ref.median, m.unit, ref.bad_change(v),
                        label + ": median " + against(v, ref.median, m.unit) + "; " +
                            std::to_string(slow[a]) + " of " + std::to_string(measured[a]) +
                            " pairs slow"});
  }
  // A pair is judged only by pairs free of slow nodes; one that is slow in a round where most
  // of the other pairs were slow too is a moment (a busy switch, a noisy start), not a link.
  auto counts = [&](std::size_t a, std::size_t b) {
    const std::size_t i = core::pair_index(a, b, n);
    return m.median[i] && !slow_node[a] && !slow_node[b] && node_answered(c.nodes[a]) &&
           node_answered(c.nodes[b]);
  };
  auto slow_moment = [&](std::size_t a, std::size_t b) {
    const auto& round = schedule.rounds[schedule.round_of[core::pair_index(a, b, n)]];
    std::size_t others = 0, slow_others = 0;
    for (const auto& p : round) {
      if ((p.a == a && p.b == b) || !counts(p.a, p.b)) continue;
      ++others;
      if (ref.is_outlier(*m.median[core::pair_index(p.a, p.b, n)], options)) ++slow_others;
    }
    return others > 0 && 2 * slow_others > others;
  };
  for (std::size_t a = 0, i = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b, ++i) {
      if (!counts(a, b)) continue;
      const double v = *m.median[i];
      if (!ref.is_outlier(v, options) || slow_moment(a, b)) continue;
      links[{a, b}].push_back({m.benchmark, v, ref.median, m.unit, ref.bad_change(v),
                               label + ": " + against(v, ref.median, m.unit) +
                                   "; both ends fine with their other pairs"});
    }
}

// One suspect from its findings: the strongest names the figure, all of them the evidence.
suspect merge(suspect_kind kind, std::string node, std::string peer, std::vector<finding> f) {
  std::stable_sort(f.begin(), f.end(),
                   [](const finding& x, const finding& y) { return x.change > y.change; });
  suspect s;
  s.kind = kind;
  s.node = std::move(node);
  s.peer = std::move(peer);
  s.benchmark = f.front().benchmark;
  s.value = f.front().value;
  s.cluster_median = f.front().median;
  s.unit = f.front().unit;
  s.evidence = s.node + (s.peer.empty() ? "" : " - " + s.peer) + ": ";
  for (std::size_t i = 0; i < f.size(); ++i)
    s.evidence += (i ? "; " : "") + f[i].text;
  return s;
}

double strength(const std::vector<finding>& f) {
  double best = 0;
  for (const auto& x : f)
    best = std::max(best, x.change);
  return best;
}

}  // namespace

std::vector<suspect> find_suspects(const core::result_file& file, const suspect_options& options) {
  std::vector<suspect> out;
  if (!file.cluster) return out;
  const auto& c = *file.cluster;

  // Nodes that stopped answering first: they are the first thing to fix.
  for (const auto& node : c.nodes) {
    if (node_answered(node)) continue;
    suspect s;
    s.node = node.name;
    s.evidence = node.name + ": stopped answering: " +
                 (node.reason.empty() ? core::to_string(node.status) : node.reason);
    out.push_back(std::move(s));
  }

  findings_by_node nodes;
  findings_by_link links;
  local_findings(c, options, nodes);
  const auto schedule = rounds_by_pair(c);
  for (const auto& m : c.pairs)
    pair_findings(c, m, schedule, options, nodes, links);

  std::vector<std::pair<double, suspect>> ranked;
  for (auto& [i, f] : nodes)
    ranked.emplace_back(strength(f), merge(suspect_kind::node, c.nodes[i].name, {}, std::move(f)));
  auto by_strength = [](const auto& x, const auto& y) { return x.first > y.first; };
  std::stable_sort(ranked.begin(), ranked.end(), by_strength);
  for (auto& r : ranked)
    out.push_back(std::move(r.second));
  ranked.clear();
  // A link is named only when both its ends are fine with everyone else in every measurement:
  // a slow node's pairs are the node's evidence, whichever measurement named it.
  for (auto& [ab, f] : links)
    if (!nodes.count(ab.first) && !nodes.count(ab.second))
      ranked.emplace_back(strength(f), merge(suspect_kind::link, c.nodes[ab.first].name,
                                             c.nodes[ab.second].name, std::move(f)));
  std::stable_sort(ranked.begin(), ranked.end(), by_strength);
  for (auto& r : ranked)
    out.push_back(std::move(r.second));
  return out;
}

}  // namespace gpubench::cluster

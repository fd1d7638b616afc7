// The findings of one pass over a cluster run (first_look.hpp); docs/cluster.md "The verdict:
// suspects" is the method in words. O(nodes + pairs) per measurement, apart from the selection
// inside each median.
#include "cluster/first_look.hpp"

#include <algorithm>
#include <cmath>

#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"
#include "core/text_format.hpp"

namespace gpubench::cluster {

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
      out.nodes[e.node].push_back({true, lc.benchmark, lc.params, lc.bytes, e.value, ref, lc.unit,
                                   lc.label + ": " + against(e.value, ref.median, lc.unit) +
                                       " over " + std::to_string(lc.entries.size()) + " nodes",
                                   std::nullopt});
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
// between nodes that are not slow by their pairs in this measurement.
void pair_findings(const core::cluster_section& c, const core::pair_measurement& m,
                   const schedule_map& schedule, const suspect_options& options, first_look& out) {
  const std::size_t n = c.nodes.size();
  if (m.median.size() != core::pair_count(n)) return;
  const auto answered = static_cast<std::size_t>(std::count_if(
      c.nodes.begin(), c.nodes.end(), [](const auto& node) { return node_answered(node); }));
  if (answered < min_nodes_for_verdict) return;
  const bool higher = m.better != "lower";
  const std::string label = case_label(m.benchmark, m.params, m.bytes);

  // The stable-point rule for pairs: where the typical pair's p99 is many times its median,
  // the round trips waited for a CPU (a busy node, scheduling), not for the path.
  std::vector<double> tails;
  for (std::size_t i = 0; i < m.median.size() && i < m.p99.size(); ++i)
    if (m.median[i] && m.p99[i] && *m.median[i] > 0) tails.push_back(*m.p99[i] / *m.median[i]);
  if (const double typical = median_of(tails); !tails.empty() && typical > options.max_pair_tail) {
    out.unsteady.push_back(label + ": the typical pair's p99 is " + core::format_ratio(typical) +
                           " its median");
    return;
  }

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
    out.nodes[a].push_back({false, m.benchmark, m.params, m.bytes, v, ref, m.unit,
                            label + ": median " + against(v, ref.median, m.unit) + "; " +
                                std::to_string(slow[a]) + " of " + std::to_string(measured[a]) +
                                " pairs slow",
                            std::nullopt});
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
  // A slow pair of a node slow by its pairs is that node's evidence; where some of the node's
  // pairs were not slow, it is kept as a link finding "behind" the node, which stands only once
  // the node did not reproduce and the pair, measured again, did (suspects.cpp): a slow link and
  // two noisy pairs make 3 of 5. A node slow with every partner hides no link.
  auto hides_links = [&](std::size_t x) { return slow_node[x] && slow[x] < measured[x]; };
  for (std::size_t a = 0, i = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b, ++i) {
      if (!m.median[i] || !node_answered(c.nodes[a]) || !node_answered(c.nodes[b]) ||
          (slow_node[a] && slow_node[b]) || (slow_node[a] && !hides_links(a)) ||
          (slow_node[b] && !hides_links(b)))
        continue;
      const double v = *m.median[i];
      if (!ref.is_outlier(v, options) || slow_moment(a, b)) continue;
      finding f{false,       m.benchmark, m.params, m.bytes,
                v,           ref,         m.unit,   label + ": " + against(v, ref.median, m.unit),
                std::nullopt};
      if (slow_node[a] || slow_node[b]) {
        f.behind = slow_node[a] ? a : b;
        f.text += "; one of " + c.nodes[*f.behind].name + "'s slow pairs";
      } else {
        f.text += "; both ends fine with their other pairs";
      }
      out.links[{a, b}].push_back(std::move(f));
    }
}

}  // namespace

first_look look_once(const core::cluster_section& c, const suspect_options& options) {
  first_look out;
  local_findings(c, options, out);
  const auto schedule = rounds_by_pair(c);
  for (const auto& m : c.pairs)
    pair_findings(c, m, schedule, options, out);
  return out;
}

}  // namespace gpubench::cluster

#include "reports/cluster/cluster_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "cluster/robust.hpp"
#include "core/cluster.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::cluster {

using namespace model;

// The verdict is cluster/'s (gpubench::cluster); this section only shows it.
using gpubench::cluster::cluster_verdict;
using gpubench::cluster::judge;
using gpubench::cluster::min_nodes_for_verdict;
using gpubench::cluster::node_answered;
using gpubench::cluster::node_pair_medians;
using gpubench::cluster::second_look;
using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;
using gpubench::cluster::suspect_options;

namespace {

constexpr std::size_t max_suspect_rows = 100;
constexpr std::size_t max_local_columns = 4;

std::string percent(double share) {
  return std::to_string(std::lround(share * 100)) + "%";
}

std::string pair_label(const core::pair_measurement& m) {
  const std::string p = params_text(m.params);
  return m.benchmark + " " + format_size(m.bytes) + (p.empty() ? "" : " (" + p + ")");
}

std::size_t answering(const core::cluster_section& c) {
  return static_cast<std::size_t>(std::count_if(c.nodes.begin(), c.nodes.end(),
                                                [](const auto& n) { return node_answered(n); }));
}

block overview(const core::cluster_section& c, const suspect_options& o) {
  const std::size_t n = c.nodes.size();
  std::size_t measured = 0;
  for (const auto& m : c.pairs)
    measured += static_cast<std::size_t>(std::count_if(
        m.median.begin(), m.median.end(), [](const auto& v) { return v.has_value(); }));
  return paragraph{
      std::to_string(n) + " nodes (" + std::to_string(answering(c)) + " answering), " +
      std::to_string(core::pair_count(n)) + " node pairs, " + std::to_string(c.pairs.size()) +
      " pair measurements (" + std::to_string(measured) + " pair figures) in " +
      std::to_string(c.rounds) + " rounds" +
      (c.concurrency ? ", at most " + std::to_string(c.concurrency) + " pairs at once" : "") +
      ". Suspects are named from this file alone with robust statistics across the cluster: a "
      "figure is an outlier when it is worse than the cluster median by more than " +
      format_value(o.deviation) +
      " scaled MADs on the log scale (1.4826 x the MAD of the logarithms) and by at least " +
      percent(o.min_change) + " (" + percent(o.min_latency_change) +
      " for latency); a node is slow when its own results are outliers among the nodes or more "
      "than " +
      percent(o.pair_share) +
      " of its pairs are outliers; a link is slow when its pair is an outlier while both ends "
      "are fine with the other nodes. Before it is named, each candidate is measured again (its "
      "local points run again on every node at once, its pairs against other partners, a "
      "link's pair once more): only what reproduces is named (docs/cluster.md)."};
}

std::string kind_text(const suspect& s) {
  if (s.kind == suspect_kind::link) return "slow link";
  return s.benchmark.empty() ? "stopped node" : "slow node";
}

std::string ratio_text(double value, double median) {
  return median > 0 ? format_ratio(value / median) : "-";
}

// What the second look said of a named suspect.
std::string second_text(const suspect& s) {
  if (s.benchmark.empty()) return "-";  // a stopped node
  if (s.check == second_look::confirmed)
    return "confirmed: again " + format_value(s.again) + " " + s.unit + " (" +
           ratio_text(s.again, s.cluster_median) + ")";
  return "not re-measured";
}

block suspects_table(const std::vector<suspect>& suspects) {
  table t;
  t.caption = "Suspects (" + std::to_string(suspects.size()) + ")";
  t.header = {"#",     "suspect",     "where",   "measurement", "value", "cluster median",
              "ratio", "second look", "evidence"};
  t.numeric = {true, false, false, false, true, true, true, false, false};
  for (std::size_t i = 0; i < suspects.size() && i < max_suspect_rows; ++i) {
    const auto& s = suspects[i];
    const bool figures = !s.benchmark.empty();
    t.rows.push_back(
        {std::to_string(i + 1), kind_text(s), s.peer.empty() ? s.node : s.node + " - " + s.peer,
         figures ? s.benchmark : "-", figures ? format_value(s.value) + " " + s.unit : "-",
         figures ? format_value(s.cluster_median) + " " + s.unit : "-",
         figures ? ratio_text(s.value, s.cluster_median) : "-", second_text(s), s.evidence});
  }
  return t;
}

// The candidates the second look did not reproduce: listed with both figures, never named.
block unconfirmed_table(const std::vector<suspect>& unconfirmed) {
  table t;
  t.caption =
      "Not confirmed: measured again, not reproduced (" + std::to_string(unconfirmed.size()) + ")";
  t.header = {"candidate",      "where",       "measurement", "first",   "again",
              "cluster median", "first ratio", "again ratio", "evidence"};
  t.numeric = {false, false, false, true, true, true, true, true, false};
  for (std::size_t i = 0; i < unconfirmed.size() && i < max_suspect_rows; ++i) {
    const auto& s = unconfirmed[i];
    t.rows.push_back({s.kind == suspect_kind::link ? "link" : "node",
                      s.peer.empty() ? s.node : s.node + " - " + s.peer, s.benchmark,
                      format_value(s.value) + " " + s.unit, format_value(s.again) + " " + s.unit,
                      format_value(s.cluster_median) + " " + s.unit,
                      ratio_text(s.value, s.cluster_median), ratio_text(s.again, s.cluster_median),
                      s.evidence});
  }
  return t;
}

// Marks the suspects on a pair matrix: slow and stopped nodes as lines, slow links as cells.
void mark(heatmap& h, const core::cluster_section& c, const std::vector<suspect>& suspects) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    index.emplace(c.nodes[i].name, i);
  std::string label;
  std::size_t listed = 0;
  for (const auto& s : suspects) {
    const auto a = index.find(s.node);
    if (a == index.end()) continue;
    if (s.kind == suspect_kind::node) {
      h.marked_lines.push_back(a->second);
    } else {
      const auto b = index.find(s.peer);
      if (b == index.end()) continue;
      h.marked_cells.emplace_back(a->second, b->second);
      h.marked_cells.emplace_back(b->second, a->second);
    }
    if (++listed <= 8)
      label += (label.empty() ? "" : ", ") + (s.peer.empty() ? s.node : s.node + " - " + s.peer) +
               " (" + kind_text(s) + ")";
  }
  if (listed > 8) label += ", and " + std::to_string(listed - 8) + " more";
  if (!label.empty()) h.marks_label = "marked in red: " + label;
}

heatmap pair_matrix(const core::cluster_section& c, const core::pair_measurement& m,
                    const std::vector<suspect>& suspects) {
  const std::size_t n = c.nodes.size();
  heatmap h;
  h.title = pair_label(m) + ", median per pair";
  h.row_label = "node";
  h.col_label = "node";
  h.unit = m.unit;
  h.higher_is_better = m.better != "lower";
  h.raster = n > raster_above_nodes;
  for (const auto& node : c.nodes) {
    h.rows.push_back(node.name);
    h.cols.push_back(node.name);
  }
  h.values.assign(n, std::vector<double>(n, std::nan("")));
  if (m.median.size() == core::pair_count(n))
    for (std::size_t a = 0, i = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b, ++i)
        if (m.median[i]) h.values[a][b] = h.values[b][a] = *m.median[i];
  if (h.raster) {
    h.row_label = "node index";
    h.col_label = "node index";
  }
  mark(h, c, suspects);
  return h;
}

// The local cases most nodes measured (at most a few), as "benchmark|params|bytes" keys.
struct local_column {
  std::string key, header;
};

std::vector<local_column> local_columns(const core::cluster_section& c) {
  std::map<std::string, std::pair<std::size_t, std::string>> seen;  // key -> (nodes, header)
  std::vector<std::string> order;
  for (const auto& node : c.nodes)
    for (const auto& r : node.results) {
      if (r.status != core::case_status::ok) continue;
      for (const auto& p : r.points) {
        const std::string key = r.benchmark + "|" + r.params.dump() + "|" + std::to_string(p.bytes);
        auto [it, fresh] = seen.try_emplace(key, 0, "");
        if (fresh) {
          const std::string params = params_text(r.params);
          it->second.second = r.benchmark + " " + format_size(p.bytes) +
                              (params.empty() ? "" : " (" + params + ")") + " (" + r.unit + ")";
          order.push_back(key);
        }
        ++it->second.first;
      }
    }
  std::vector<local_column> out;
  for (const auto& key : order)
    if (seen[key].first * 2 > c.nodes.size() && out.size() < max_local_columns)
      out.push_back({key, seen[key].second});
  return out;
}

block node_table(const core::cluster_section& c, const std::vector<suspect>& suspects) {
  const auto locals = local_columns(c);
  std::vector<std::vector<std::optional<double>>> pair_medians;
  for (const auto& m : c.pairs)
    pair_medians.push_back(node_pair_medians(c, m));
  std::map<std::string, std::string> verdict;
  for (const auto& s : suspects) {
    auto add = [&](const std::string& node, const std::string& what) {
      std::string& v = verdict[node];
      v += (v.empty() ? "" : ", ") + what;
    };
    add(s.node, s.kind == suspect_kind::link ? "link to " + s.peer : kind_text(s));
    if (s.kind == suspect_kind::link) add(s.peer, "link to " + s.node);
  }
  table t;
  t.caption = "Nodes: own results and median over their pairs";
  t.header = {"node", "status"};
  t.numeric = {false, false};
  for (const auto& l : locals) {
    t.header.push_back(l.header);
    t.numeric.push_back(true);
  }
  for (const auto& m : c.pairs) {
    t.header.push_back(pair_label(m) + " pair median (" + m.unit + ")");
    t.numeric.push_back(true);
  }
  t.header.push_back("suspect");
  t.numeric.push_back(false);
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    const auto& node = c.nodes[i];
    std::vector<std::string> row{
        node.name, core::to_string(node.status) + (node.reason.empty() ? "" : ": " + node.reason)};
    for (const auto& l : locals) {
      std::string cell = "-";
      for (const auto& r : node.results)
        for (const auto& p : r.points)
          if (r.status == core::case_status::ok &&
              r.benchmark + "|" + r.params.dump() + "|" + std::to_string(p.bytes) == l.key)
            cell = format_value(p.stats.median);
      row.push_back(cell);
    }
    for (const auto& medians : pair_medians)
      row.push_back(medians[i] ? format_value(*medians[i]) : "-");
    const auto v = verdict.find(node.name);
    row.push_back(v == verdict.end() ? "" : v->second);
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<section> one_cluster(const run_input& run, const suspect_options& options) {
  const auto& c = *run.file.cluster;
  const cluster_verdict verdict = judge(run.file, options);
  const auto& suspects = verdict.named;
  std::vector<section> out;
  section s{"Cluster: " + run.label, 1, {}};
  s.blocks.push_back(overview(c, options));
  if (answering(c) < min_nodes_for_verdict)
    s.blocks.emplace_back(note{std::to_string(answering(c)) + " nodes answered: with fewer than " +
                               std::to_string(min_nodes_for_verdict) +
                               " there is no cluster to compare a node with (one pair cannot "
                               "say which end is slow), so no suspect is named from the "
                               "measurements."});
  if (suspects.empty())
    s.blocks.emplace_back(
        paragraph{"No suspect: every node and every pair is within the "
                  "thresholds of the cluster median."});
  else
    s.blocks.push_back(suspects_table(suspects));
  if (!verdict.second_look && !suspects.empty())
    s.blocks.emplace_back(
        note{"Not re-measured: this file holds no second look (written before format 1.2, or "
             "the launch was cut short before it), so its suspects come from one pass of "
             "measurements."});
  if (!verdict.unconfirmed.empty()) s.blocks.push_back(unconfirmed_table(verdict.unconfirmed));
  if (!verdict.unsteady.empty()) {
    std::string list;
    for (const auto& u : verdict.unsteady)
      list += (list.empty() ? "" : "; ") + u;
    s.blocks.emplace_back(note{"Not judged, too unsteady to name anyone (" +
                               std::to_string(verdict.unsteady.size()) + "): " + list + "."});
  }
  if (suspects.size() > max_suspect_rows)
    s.blocks.emplace_back(note{"The first " + std::to_string(max_suspect_rows) + " of " +
                               std::to_string(suspects.size()) + " suspects are listed."});
  if (!c.failures.empty()) {
    table f;
    f.caption = "Pairs not measured (" + std::to_string(c.failures.size()) + ")";
    f.header = {"pair", "measurement", "reason"};
    for (std::size_t i = 0; i < c.failures.size() && i < max_suspect_rows; ++i) {
      const auto& x = c.failures[i];
      const auto name = [&](std::size_t k) {
        return k < c.nodes.size() ? c.nodes[k].name : std::to_string(k);
      };
      f.rows.push_back({name(x.a) + " - " + name(x.b), x.benchmark, x.reason});
    }
    s.blocks.push_back(std::move(f));
  }
  out.push_back(std::move(s));

  if (!c.pairs.empty()) {
    section matrices{"Cluster pair matrices: " + run.label, 2, {}};
    if (c.nodes.size() > raster_above_nodes)
      matrices.blocks.emplace_back(
          note{"With " + std::to_string(c.nodes.size()) + " nodes each matrix is one image, one " +
               "pixel per pair, rows and columns by node index; red triangles point at slow or "
               "stopped nodes and red rings at slow links. The node table below gives each node's "
               "figures."});
    for (const auto& m : c.pairs)
      matrices.blocks.push_back(pair_matrix(c, m, suspects));
    out.push_back(std::move(matrices));
  }
  section nodes{"Cluster nodes: " + run.label, 2, {}};
  nodes.blocks.push_back(node_table(c, suspects));
  out.push_back(std::move(nodes));
  return out;
}

}  // namespace

std::vector<section> cluster_sections(const std::vector<run_input>& runs,
                                      const suspect_options& options) {
  std::vector<section> out;
  for (const auto& r : runs) {
    if (!r.file.cluster) continue;
    for (auto& s : one_cluster(r, options))
      out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpubench::reports::cluster

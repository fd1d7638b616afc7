#include "reports/cluster/cluster_report.hpp"

#include <algorithm>
#include <cmath>

#include "cluster/robust.hpp"
#include "core/cluster.hpp"
#include "reports/cluster/node_order.hpp"
#include "reports/cluster/node_table.hpp"
#include "reports/cluster/pair_figures.hpp"
#include "reports/cluster/suspect_tables.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::cluster {

// The verdict is cluster/'s (gpubench::cluster); this section only shows it.
using gpubench::cluster::cluster_verdict;
using gpubench::cluster::min_nodes_for_verdict;
using gpubench::cluster::node_answered;
using gpubench::cluster::suspect_options;
using model::block;
using model::note;
using model::paragraph;
using model::section;

namespace {

std::string percent(double share) {
  return std::to_string(std::lround(share * 100)) + "%";
}

// 8386560 -> "8,386,560".
std::string count_text(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::size_t answering(const core::cluster_section& c) {
  return static_cast<std::size_t>(std::count_if(c.nodes.begin(), c.nodes.end(),
                                                [](const auto& n) { return node_answered(n); }));
}

// How the pairs were chosen: "every pair: 28 node pairs" or "4 random matchings (seed 7): 8,192
// of 8,386,560 node pairs measured".
std::string plan_text(const core::cluster_section& c) {
  const std::size_t all = core::pair_count(c.nodes.size());
  const std::size_t planned = core::slot_count(c);
  const std::size_t measured = measured_pairs(c);
  std::string how;
  if (c.plan.method == "matchings")
    how = std::to_string(c.plan.matchings) + " random matching" +
          (c.plan.matchings == 1 ? "" : "s") + " (seed " + std::to_string(c.plan.seed) + ")";
  else if (c.pair_list.empty())
    how = "every pair";
  else
    how = "a list of pairs";
  std::string out =
      how + ": " + count_text(measured) + " of " + count_text(all) + " node pairs measured";
  if (measured != planned) out += " (" + count_text(planned) + " planned)";
  return out;
}

std::string leaves_text(const node_order& order) {
  if (!order.by_leaf()) return "";
  std::string out = " Nodes on " + std::to_string(order.groups.size()) + " leaf switch" +
                    (order.groups.size() == 1 ? "" : "es");
  if (order.groups.size() <= 8) {
    out += " (";
    for (std::size_t i = 0; i < order.groups.size(); ++i)
      out += (i ? ", " : "") + group_name(order.groups[i].leaf) + ": " +
             std::to_string(order.groups[i].count);
    out += ")";
  }
  return out + "; the tables and matrices below are grouped by switch.";
}

block overview(const core::cluster_section& c, const std::vector<pair_view>& views,
               const node_order& order, const suspect_options& o) {
  const std::size_t n = c.nodes.size();
  const bool both_ways =
      std::any_of(views.begin(), views.end(), [](const pair_view& v) { return v.directed(); });
  return paragraph{
      std::to_string(n) + " nodes (" + std::to_string(answering(c)) + " answering); " +
      plan_text(c) + ", " + std::to_string(c.pairs.size()) + " pair measurements in " +
      std::to_string(c.rounds) + " rounds" +
      (c.concurrency ? ", at most " + std::to_string(c.concurrency) + " pairs at once" : "") +
      (both_ways ? "; bandwidth measured both ways, each way its own figure" : "") + "." +
      leaves_text(order) +
      " Suspects are named from this file alone with robust statistics across the cluster: a "
      "figure is an outlier when it is worse than the cluster median by more than " +
      model::format_value(o.deviation) +
      " scaled MADs on the log scale (1.4826 x the MAD of the logarithms) and by at least " +
      percent(o.min_change) + " (" + percent(o.min_latency_change) +
      " for latency); a node is slow when its own results are outliers among the nodes or more "
      "than " +
      percent(o.pair_share) +
      " of its pairs are outliers, each way of its bandwidth judged apart (slow to send, slow to "
      "receive); a link is slow when its pair is an outlier while both ends are fine with the "
      "other nodes. Before it is named, each candidate is measured again (its local points run "
      "again on every node at once, its pairs against other partners, a link's pair once more): "
      "only what reproduces is named (docs/cluster.md)."};
}

block failures_table(const core::cluster_section& c) {
  model::table f;
  f.caption = "Pairs not measured (" + std::to_string(c.failures.size()) + ")";
  f.header = {"pair", "measurement", "reason"};
  const auto name = [&](std::size_t k) {
    return k < c.nodes.size() ? c.nodes[k].name : std::to_string(k);
  };
  for (std::size_t i = 0; i < c.failures.size() && i < max_suspect_rows; ++i) {
    const auto& x = c.failures[i];
    f.rows.push_back({name(x.a) + " - " + name(x.b), x.benchmark, x.reason});
  }
  return f;
}

section verdict_section(const std::string& label, const core::cluster_section& c,
                        const cluster_verdict& verdict, const std::vector<pair_view>& views,
                        const node_order& order, const suspect_options& options) {
  const auto& suspects = verdict.named;
  section s{"Cluster: " + label, 1, {}};
  s.blocks.push_back(overview(c, views, order, options));
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
    s.blocks.push_back(suspects_table(c, order, suspects));
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
  if (!c.failures.empty()) s.blocks.push_back(failures_table(c));
  return s;
}

section matrices_section(const std::string& label, const core::cluster_section& c,
                         const std::vector<pair_view>& views, const node_order& order,
                         const std::vector<gpubench::cluster::suspect>& suspects) {
  section matrices{"Cluster pair matrices: " + label, 2, {}};
  std::string how;
  if (c.nodes.size() > raster_above_nodes)
    how = "With " + std::to_string(c.nodes.size()) +
          " nodes each matrix is one image (one pixel per pair; where there are more nodes than "
          "pixels, a pixel shows the worst pair of its block), rows and columns " +
          (order.by_leaf() ? std::string("by leaf switch") : std::string("by node index")) +
          "; red triangles point at slow or stopped nodes, red rings at slow links. The node "
          "table below gives each node's figures.";
  if (!c.pair_list.empty())
    how += std::string(how.empty() ? "" : " ") +
           "Grey cells are pairs this sweep did not measure, not slow ones.";
  if (std::any_of(views.begin(), views.end(), [](const pair_view& v) { return v.directed(); }))
    how += std::string(how.empty() ? "" : " ") +
           "A bandwidth case measured both ways is one matrix: the row sends, the column "
           "receives.";
  if (!how.empty()) matrices.blocks.emplace_back(note{how});
  for (const auto& v : views)
    matrices.blocks.push_back(pair_matrix(c, v, order, suspects));
  return matrices;
}

}  // namespace

std::vector<section> cluster_run_sections(const std::string& label, const core::result_file& file,
                                          const cluster_verdict& verdict,
                                          const suspect_options& options) {
  const auto& c = *file.cluster;
  const auto views = pair_views(c);
  const auto order = order_nodes(c);
  std::vector<section> out;
  out.push_back(verdict_section(label, c, verdict, views, order, options));
  if (!views.empty()) out.push_back(matrices_section(label, c, views, order, verdict.named));
  section nodes{"Cluster nodes: " + label, 2, {}};
  nodes.blocks.push_back(node_table(c, views, order, verdict.named));
  out.push_back(std::move(nodes));
  return out;
}

std::vector<section> cluster_sections(const std::vector<model::run_input>& runs,
                                      const suspect_options& options) {
  std::vector<section> out;
  for (const auto& r : runs) {
    if (!r.file.cluster) continue;
    for (auto& s :
         cluster_run_sections(r.label, r.file, gpubench::cluster::judge(r.file, options), options))
      out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpubench::reports::cluster

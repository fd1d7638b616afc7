// Allreduce: bus bandwidth against size with one line per node count, the scaling table
// (1 -> 2 -> 4 nodes relative to the smallest), and transports side by side when several ran.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/text_format.hpp"
#include "reports/views/allreduce_groups.hpp"
#include "reports/views/view_blocks.hpp"
#include "reports/views/views.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

struct group {
  std::string label;  // run, backend, transport, ...: everything but the node count
  std::string backend;
  std::vector<case_ref> members;  // sorted by node count
};

long long nodes_of(const case_ref& c) {
  const auto& p = c.result->params;
  return p.contains("nodes") && p.at("nodes").is_number_integer() ? p.at("nodes").get<long long>()
                                                                  : 1;
}

// The sizes every member measured, so ratios compare like with like.
std::vector<std::uint64_t> common_sizes(const std::vector<case_ref>& members) {
  std::set<std::uint64_t> common;
  bool first = true;
  for (const auto& c : members) {
    std::set<std::uint64_t> mine;
    for (const auto& p : c.result->points)
      mine.insert(p.bytes);
    if (first) {
      common = mine;
      first = false;
    } else {
      std::set<std::uint64_t> both;
      std::set_intersection(common.begin(), common.end(), mine.begin(), mine.end(),
                            std::inserter(both, both.end()));
      common = both;
    }
  }
  return {common.begin(), common.end()};
}

double value_at(const case_ref& c, std::uint64_t bytes, const std::string& key) {
  for (const auto& p : c.result->points)
    if (p.bytes == bytes) return plotted_value(p, key);
  return std::nan("");
}

// Ratios against the smallest node count and, when that is a single node, also against the
// smallest of two or more nodes: with several GPUs per node the first is NVLink, and 2 nodes
// would look like a collapse against it. Every ratio column names its baseline.
table scaling_table(const group& g, const std::string& key, const std::string& what) {
  table t;
  const auto sizes = common_sizes(g.members);
  if (sizes.empty()) return t;
  std::vector<case_ref> bases = {g.members.front()};
  const auto multi = std::find_if(g.members.begin(), g.members.end(),
                                  [](const case_ref& c) { return nodes_of(c) >= 2; });
  if (multi != g.members.end() && nodes_of(*multi) != nodes_of(bases.front()))
    bases.push_back(*multi);
  auto base_text = [](const case_ref& b) { return std::to_string(nodes_of(b)) + " node(s)"; };
  t.caption = "Scaling, " + g.label + ": " + what + " relative to " + base_text(bases.front());
  if (bases.size() > 1)
    t.caption += " and to " + base_text(bases.back()) + " (the first row of two or more nodes)";
  t.header = {"nodes", "ranks"};
  for (const auto size : {sizes.back(), sizes.front()}) {
    t.header.push_back(what + " at " + format_size(size));
    for (const auto& b : bases)
      t.header.push_back("vs " + base_text(b));
  }
  t.numeric.assign(t.header.size(), true);
  for (const auto& c : g.members) {
    const auto& p = c.result->params;
    std::vector<std::string> row = {std::to_string(nodes_of(c)),
                                    p.contains("ranks") ? param_text(p.at("ranks")) : "-"};
    for (const auto size : {sizes.back(), sizes.front()}) {
      const double v = value_at(c, size, key);
      row.push_back(format_value(v));
      for (const auto& b : bases)
        row.push_back(format_ratio(v / value_at(b, size, key)));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

// A case of one rank has no bus bandwidth (older result files recorded algbw there).
bool single_rank(const case_ref& c) {
  const auto& p = c.result->params;
  return p.contains("ranks") && p.at("ranks").is_number_integer() &&
         p.at("ranks").get<long long>() < 2;
}

// Transports (or runs) of one backend side by side, per node count, at the largest size all
// of them measured.
table transport_table(const std::vector<const group*>& gs, const std::string& key,
                      const std::string& what) {
  table t;
  std::vector<case_ref> all;
  std::set<long long> nodes;
  for (const auto* g : gs)
    for (const auto& c : g->members) {
      all.push_back(c);
      nodes.insert(nodes_of(c));
    }
  const auto sizes = common_sizes(all);
  if (sizes.empty()) return t;
  t.caption = gs.front()->backend + ": " + what + " at " + format_size(sizes.back()) +
              " per node count, side by side";
  t.header = {"nodes"};
  for (const auto* g : gs)
    t.header.push_back(g->label);
  for (std::size_t i = 1; i < gs.size(); ++i)
    t.header.push_back(gs[i]->label + " / " + gs.front()->label);
  t.numeric.assign(t.header.size(), true);
  for (const long long n : nodes) {
    std::vector<std::string> row = {std::to_string(n)};
    std::vector<double> values;
    for (const auto* g : gs) {
      double v = std::nan("");
      for (const auto& c : g->members)
        if (nodes_of(c) == n) v = value_at(c, sizes.back(), key);
      values.push_back(v);
      row.push_back(format_value(v));
    }
    for (std::size_t i = 1; i < values.size(); ++i)
      row.push_back(format_ratio(values[i] / values.front()));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Where sweeps ended before their planned largest size, and why (the case's "sweep" context),
// one sentence per reason, how many points stopped short of the rule's minimum of samples, and
// how many timed fewer operations per sample than the method's minimum.
std::string sweep_note(const std::vector<case_ref>& cases) {
  std::map<std::string, std::vector<std::string>> ended;  // reason -> "4 node(s), ... at 1M"
  std::size_t short_points = 0, cut_points = 0;
  for (const auto& c : cases) {
    for (const auto& p : c.result->points) {
      if (p.extra.contains("min_samples")) ++short_points;
      if (p.extra.contains("min_iterations")) ++cut_points;
    }
    const auto& sw = c.result->context.value("sweep", nlohmann::json());
    if (!sw.is_object() || !sw.contains("last_bytes")) continue;
    const std::string why = sw.value("stopped_because", std::string("no reason recorded"));
    ended[why].push_back(fmt::format("{} node(s){}{} at {} of {}", nodes_of(c),
                                     c.label.empty() ? "" : ", ", c.label,
                                     format_size(sw.value("last_bytes", std::uint64_t{0})),
                                     format_size(sw.value("planned_max_bytes", std::uint64_t{0}))));
  }
  std::string out;
  for (const auto& [why, which] : ended)
    out += fmt::format("{}Sweeps that ended early ({}): {}.", out.empty() ? "" : " ", why,
                       fmt::join(which, "; "));
  if (short_points > 0)
    out += fmt::format(
        "{}{} point(s) have fewer samples than the stopping rule asks (their time "
        "limit came first): the point tables mark them \"short\".",
        out.empty() ? "" : " ", short_points);
  if (cut_points > 0)
    out += fmt::format(
        "{}{} point(s) timed fewer operations per sample than the method's minimum (a slow "
        "link: each sample must end well inside the stall timeout, --coll-timeout): the point "
        "tables mark them \"cut\"; their busbw may read high on a shaped link.",
        out.empty() ? "" : " ", cut_points);
  return out;
}

}  // namespace

section allreduce_view(const std::string& title, std::vector<case_ref> cases,
                       const reference_set& refs) {
  label_cases(cases, {"nodes", "ranks"});
  auto ok = measured(cases);
  const auto solo = std::remove_if(ok.begin(), ok.end(), single_rank);
  const bool dropped_solo = solo != ok.end();
  ok.erase(solo, ok.end());
  if (ok.empty()) return generic_view(title, std::move(cases), refs);  // says why, no chart
  const bool has_busbw = std::any_of(ok.begin(), ok.end(), [](const case_ref& c) {
    return std::any_of(c.result->points.begin(), c.result->points.end(),
                       [](const auto& p) { return std::isfinite(extra_value(p, "busbw")); });
  });
  const std::string key = has_busbw ? "busbw" : "";
  const std::string what = has_busbw ? "busbw" : ok.front().result->metric;
  const std::string factor = bus_factor_text(ok.front().result->kind.operation);
  section s{title, 1, {}};
  s.blocks.emplace_back(paragraph{
      has_busbw ? "Bus bandwidth (busbw = algbw x " +
                      (factor.empty() ? std::string("the operation's bus factor") : factor) +
                      ", as nccl-tests) against message size, one line per node count; the "
                      "scaling table sets each node count against the smallest, for the largest "
                      "and the smallest message size."
                : "No busbw in these results: the charts plot the median " +
                      ok.front().result->metric + "."});
  if (auto note = sweep_note(ok); !note.empty()) s.blocks.emplace_back(paragraph{note});
  if (dropped_solo)
    s.blocks.emplace_back(paragraph{
        "Single-rank cases are left out of the charts and the scaling tables: one rank moves "
        "no bus bytes, so they have no bus bandwidth."});

  std::vector<group> groups;
  for (const auto& c : ok) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const group& g) { return g.label == c.label; });
    if (it == groups.end()) {
      const auto& p = c.result->params;
      groups.push_back({c.label, p.contains("backend") ? param_text(p.at("backend")) : "", {}});
      it = groups.end() - 1;
    }
    it->members.push_back(c);
  }
  const auto matched = matching_references(ok, refs);
  // Several runs: the first run's charts and scaling tables, and the runs side by side per node
  // count in the table after them, rather than a chart of each run.
  const run_input* first_run = ok.front().run;
  const bool several_runs =
      std::any_of(ok.begin(), ok.end(), [&](const case_ref& c) { return c.run != first_run; });
  if (several_runs)
    s.blocks.emplace_back(paragraph{"The charts and scaling tables are " + first_run->label +
                                    "'s; the table after them sets every run side by side."});
  for (auto& g : groups) {
    if (g.members.front().run != first_run) continue;
    std::stable_sort(g.members.begin(), g.members.end(),
                     [](const auto& a, const auto& b) { return nodes_of(a) < nodes_of(b); });
    for (auto& c : g.members) {
      const auto& p = c.result->params;
      c.label = std::to_string(nodes_of(c)) + " node(s)" +
                (p.contains("ranks") ? ", " + param_text(p.at("ranks")) + " ranks" : "");
    }
    // A group whose cases differ in nothing but the node count is labelled by its id alone.
    const bool plain = g.label == g.members.front().result->benchmark;
    const std::string chart_title = plain ? title : title + ": " + g.label;
    if (has_size_axis(g.members))
      s.blocks.emplace_back(
          size_chart(chart_title, g.members, matched, key, has_busbw ? "busbw (GB/s)" : ""));
    if (auto t = scaling_table(g, key, what); !t.rows.empty()) s.blocks.emplace_back(std::move(t));
  }
  std::map<std::string, std::vector<const group*>> by_backend;
  for (const auto& g : groups)
    by_backend[g.backend].push_back(&g);
  for (const auto& [backend, gs] : by_backend)
    if (gs.size() > 1)
      if (auto t = transport_table(gs, key, what); !t.rows.empty())
        s.blocks.emplace_back(std::move(t));
  label_cases(cases);
  append_common_blocks(s, cases, matched);
  return s;
}

}  // namespace gpubench::reports::views

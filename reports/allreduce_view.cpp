// Allreduce: bus bandwidth against size with one line per node count, the scaling table
// (1 -> 2 -> 4 nodes relative to the smallest), and transports side by side when several ran.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "reports/text_format.hpp"
#include "reports/view_blocks.hpp"
#include "reports/views.hpp"

namespace gpubench::reports {

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

table scaling_table(const group& g, const std::string& key, const std::string& what) {
  table t;
  const auto sizes = common_sizes(g.members);
  if (sizes.empty()) return t;
  const auto base = g.members.front();
  const std::string base_text = std::to_string(nodes_of(base)) + " node(s)";
  t.caption = "Scaling, " + g.label + ": " + what + " relative to " + base_text;
  t.header = {"nodes",
              "ranks",
              what + " at " + format_size(sizes.back()),
              "vs " + base_text,
              what + " at " + format_size(sizes.front()),
              "vs " + base_text};
  t.numeric = {true, true, true, true, true, true};
  for (const auto& c : g.members) {
    const auto& p = c.result->params;
    std::vector<std::string> row = {std::to_string(nodes_of(c)),
                                    p.contains("ranks") ? param_text(p.at("ranks")) : "-"};
    for (const auto size : {sizes.back(), sizes.front()}) {
      const double v = value_at(c, size, key);
      row.push_back(format_value(v));
      row.push_back(format_ratio(v / value_at(base, size, key)));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
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

}  // namespace

section allreduce_view(const std::string& title, std::vector<case_ref> cases,
                       const reference_set& refs) {
  label_cases(cases, {"nodes", "ranks"});
  const auto ok = measured(cases);
  if (ok.empty()) return generic_view(title, std::move(cases), refs);  // says why, no chart
  const bool has_busbw = std::any_of(ok.begin(), ok.end(), [](const case_ref& c) {
    return std::any_of(c.result->points.begin(), c.result->points.end(),
                       [](const auto& p) { return std::isfinite(extra_value(p, "busbw")); });
  });
  const std::string key = has_busbw ? "busbw" : "";
  const std::string what = has_busbw ? "busbw" : ok.front().result->metric;
  section s{title, 1, {}};
  s.blocks.emplace_back(paragraph{
      has_busbw ? "Bus bandwidth (busbw = algbw x 2(n-1)/n, as nccl-tests) against message size, "
                  "one line per node count; the scaling table sets each node count against the "
                  "smallest, for the largest and the smallest message size."
                : "No busbw in these results: the charts plot the median " +
                      ok.front().result->metric + "."});

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
  for (auto& g : groups) {
    std::stable_sort(g.members.begin(), g.members.end(),
                     [](const auto& a, const auto& b) { return nodes_of(a) < nodes_of(b); });
    for (auto& c : g.members) {
      const auto& p = c.result->params;
      c.label = std::to_string(nodes_of(c)) + " node(s)" +
                (p.contains("ranks") ? ", " + param_text(p.at("ranks")) + " ranks" : "");
    }
    const std::string chart_title = g.label == "coll.allreduce" ? title : title + ": " + g.label;
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
  s.blocks.emplace_back(point_table(measured(cases)));
  append_common_blocks(s, cases, measured(cases), matched);
  return s;
}

}  // namespace gpubench::reports

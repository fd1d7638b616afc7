#include "reports/cluster/suspect_tables.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "reports/cluster/suspect_text.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::cluster {

using gpubench::cluster::second_look;
using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;

namespace {

std::string ratio_text(double value, double median) {
  return median > 0 ? model::format_ratio(value / median) : "-";
}

// What the second look said of a named suspect.
std::string second_text(const suspect& s) {
  if (s.benchmark.empty()) return "-";  // a stopped node
  if (s.check == second_look::confirmed)
    return "confirmed: again " + model::format_value(s.again) + " " + s.unit + " (" +
           ratio_text(s.again, s.cluster_median) + ")";
  return "not re-measured";
}

// The switch a suspect is filed under and its place in the leaf order: a node's leaf, an
// uplink's own leaf, a link's leaf when both ends share it; a link across leaves after every
// leaf, as "leaf1 - leaf2".
struct switch_key {
  std::size_t rank = 0;
  std::string text;
};

switch_key switch_of(const core::cluster_section& c, const node_order& order,
                     const std::map<std::string, std::size_t>& index, const suspect& s) {
  std::map<std::string, std::size_t> rank;
  for (std::size_t g = 0; g < order.groups.size(); ++g)
    rank.emplace(order.groups[g].leaf, g);
  const std::size_t across = order.groups.size();
  auto leaf = [&](const std::string& name) {
    const auto i = index.find(name);
    return i == index.end() ? std::string{} : leaf_of(c, i->second);
  };
  if (s.kind == suspect_kind::uplink) {
    const auto r = rank.find(s.node);
    return {r == rank.end() ? across : r->second, s.node};
  }
  const std::string a = leaf(s.node);
  if (s.kind == suspect_kind::link) {
    const std::string b = leaf(s.peer);
    if (a != b) return {across, group_name(a) + " - " + group_name(b)};
  }
  const auto r = rank.find(a);
  return {r == rank.end() ? across : r->second, group_name(a)};
}

}  // namespace

model::table suspects_table(const core::cluster_section& c, const node_order& order,
                            const std::vector<suspect>& suspects) {
  model::table t;
  t.caption = "Suspects (" + std::to_string(suspects.size()) + ")";
  if (order.by_leaf()) t.caption += ", by leaf switch";
  t.header = {"#", "suspect", "where"};
  if (order.by_leaf()) t.header.push_back("leaf switch");
  t.header.insert(t.header.end(),
                  {"measurement", "value", "cluster median", "ratio", "second look", "evidence"});
  t.numeric = {true, false, false};
  if (order.by_leaf()) t.numeric.push_back(false);
  t.numeric.insert(t.numeric.end(), {false, true, true, true, false, false});
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    index.emplace(c.nodes[i].name, i);
  // The verdict's order (strongest first) within each switch; the first rows only.
  const std::size_t shown = std::min(suspects.size(), max_suspect_rows);
  std::vector<switch_key> keys;
  for (std::size_t i = 0; i < shown; ++i)
    keys.push_back(order.by_leaf() ? switch_of(c, order, index, suspects[i]) : switch_key{});
  std::vector<std::size_t> rows(shown);
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a].rank < keys[b].rank; });
  for (const std::size_t i : rows) {
    const auto& s = suspects[i];
    const bool figures = !s.benchmark.empty();
    std::vector<std::string> row{std::to_string(i + 1), kind_text(s), where_text(s)};
    if (order.by_leaf()) row.push_back(keys[i].text);
    const std::string nodes = uplink_nodes(c, s);
    std::string evidence = nodes.empty() ? s.evidence : nodes + "; " + s.evidence;
    row.insert(row.end(), {figures ? s.benchmark : "-",
                           figures ? model::format_value(s.value) + " " + s.unit : "-",
                           figures ? model::format_value(s.cluster_median) + " " + s.unit : "-",
                           figures ? ratio_text(s.value, s.cluster_median) : "-", second_text(s),
                           std::move(evidence)});
    t.rows.push_back(std::move(row));
  }
  return t;
}

model::table unconfirmed_table(const std::vector<suspect>& unconfirmed) {
  model::table t;
  t.caption =
      "Not confirmed: measured again, not reproduced (" + std::to_string(unconfirmed.size()) + ")";
  t.header = {"candidate",      "where",       "measurement", "first",   "again",
              "cluster median", "first ratio", "again ratio", "evidence"};
  t.numeric = {false, false, false, true, true, true, true, true, false};
  for (std::size_t i = 0; i < unconfirmed.size() && i < max_suspect_rows; ++i) {
    const auto& s = unconfirmed[i];
    const std::string what = s.kind == suspect_kind::link     ? "link"
                             : s.kind == suspect_kind::uplink ? "uplink"
                                                              : "node";
    t.rows.push_back({what, where_text(s), s.benchmark, model::format_value(s.value) + " " + s.unit,
                      model::format_value(s.again) + " " + s.unit,
                      model::format_value(s.cluster_median) + " " + s.unit,
                      ratio_text(s.value, s.cluster_median), ratio_text(s.again, s.cluster_median),
                      s.evidence});
  }
  return t;
}

}  // namespace gpubench::reports::cluster

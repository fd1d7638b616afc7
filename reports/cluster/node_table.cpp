#include "reports/cluster/node_table.hpp"

#include <map>

#include "reports/cluster/suspect_text.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::cluster {

using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;

namespace {

constexpr std::size_t max_local_columns = 4;

// The local cases most nodes measured (at most a few), as "benchmark|params|bytes" keys.
struct local_column {
  std::string key, header;
};

std::string local_key(const core::case_result& r, const core::point_result& p) {
  return r.benchmark + "|" + r.params.dump() + "|" + std::to_string(p.bytes);
}

std::vector<local_column> local_columns(const core::cluster_section& c) {
  std::map<std::string, std::pair<std::size_t, std::string>> seen;  // key -> (nodes, header)
  std::vector<std::string> order;
  for (const auto& node : c.nodes)
    for (const auto& r : node.results) {
      if (r.status != core::case_status::ok) continue;
      for (const auto& p : r.points) {
        const std::string key = local_key(r, p);
        auto [it, fresh] = seen.try_emplace(key, 0, "");
        if (fresh) {
          const std::string params = model::params_text(r.params);
          it->second.second = r.benchmark + " " + model::format_size(p.bytes) +
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

std::string uplink_way(const suspect& s) {
  return s.direction == "send"      ? " (out of the leaf)"
         : s.direction == "receive" ? " (into the leaf)"
                                    : "";
}

// What each node is suspected of, by name: its own verdict, its links, its leaf's uplink.
std::map<std::string, std::string> verdicts(const core::cluster_section& c,
                                            const std::vector<suspect>& suspects) {
  std::map<std::string, std::string> out;
  auto add = [&](const std::string& node, const std::string& what) {
    std::string& v = out[node];
    v += (v.empty() ? "" : ", ") + what;
  };
  for (const auto& s : suspects) {
    switch (s.kind) {
      case suspect_kind::node:
        add(s.node, kind_text(s));
        break;
      case suspect_kind::link:
        add(s.node, "link " + where_text(s));
        add(s.peer, "link " + where_text(s));
        break;
      case suspect_kind::uplink:
        for (std::size_t i : nodes_on(c, s.node))
          add(c.nodes[i].name, "behind " + s.node + "'s slow uplink" + uplink_way(s));
        break;
    }
  }
  return out;
}

std::string figure(const std::optional<double>& v) {
  return v ? model::format_value(*v) : "-";
}

}  // namespace

model::table node_table(const core::cluster_section& c, const std::vector<pair_view>& views,
                        const node_order& order, const std::vector<suspect>& suspects) {
  const auto locals = local_columns(c);
  std::vector<node_medians> medians;
  for (const auto& v : views)
    medians.push_back(view_node_medians(c, v));
  const auto verdict = verdicts(c, suspects);
  model::table t;
  t.caption = order.by_leaf() ? "Nodes by leaf switch: own results and median over their pairs"
                              : "Nodes: own results and median over their pairs";
  t.header = {"node"};
  if (order.by_leaf()) t.header.push_back("leaf switch");
  t.header.push_back("status");
  t.numeric.assign(t.header.size(), false);
  for (const auto& l : locals) {
    t.header.push_back(l.header);
    t.numeric.push_back(true);
  }
  for (const auto& v : views) {
    const std::string unit = " (" + v.first().unit + ")";
    if (v.directed()) {
      t.header.push_back(v.label + " sending, pair median" + unit);
      t.header.push_back(v.label + " receiving, pair median" + unit);
      t.numeric.insert(t.numeric.end(), {true, true});
    } else {
      t.header.push_back(v.label + " pair median" + unit);
      t.numeric.push_back(true);
    }
  }
  t.header.push_back("suspect");
  t.numeric.push_back(false);
  for (const std::size_t i : order.nodes) {
    const auto& node = c.nodes[i];
    std::vector<std::string> row{node.name};
    if (order.by_leaf()) row.push_back(group_name(leaf_of(c, i)));
    row.push_back(core::to_string(node.status) + (node.reason.empty() ? "" : ": " + node.reason));
    for (const auto& l : locals) {
      std::string cell = "-";
      for (const auto& r : node.results)
        for (const auto& p : r.points)
          if (r.status == core::case_status::ok && local_key(r, p) == l.key)
            cell = model::format_value(p.stats.median);
      row.push_back(cell);
    }
    for (std::size_t k = 0; k < views.size(); ++k) {
      row.push_back(figure(medians[k].sends[i]));
      if (views[k].directed()) row.push_back(figure(medians[k].receives[i]));
    }
    const auto v = verdict.find(node.name);
    row.push_back(v == verdict.end() ? "" : v->second);
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace gpubench::reports::cluster

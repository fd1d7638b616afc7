#include "reports/cluster/pair_matrix.hpp"

#include <cmath>
#include <map>

#include "reports/cluster/suspect_text.hpp"

namespace gpubench::reports::cluster {

using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;

namespace {

constexpr std::size_t max_marks_listed = 8;

// Marks the suspects: a slow node's row and column (on a directed matrix its row alone when it
// is slow to send, its column alone when slow to receive), a slow link's cells (its slow way
// alone when directed), a slow uplink's leaf (its rows or columns alone when directed).
void mark(model::heatmap& h, const core::cluster_section& c, const pair_view& v,
          const node_order& order, const std::vector<suspect>& suspects) {
  std::map<std::string, std::size_t> at;  // name -> position
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    at.emplace(c.nodes[i].name, order.position[i]);
  std::string label;
  std::size_t listed = 0;
  for (const auto& s : suspects) {
    const bool send = v.directed() && s.direction == "send";
    const bool receive = v.directed() && s.direction == "receive";
    if (s.kind == suspect_kind::uplink) {
      // Slow out of the leaf: its rows (its nodes sending); into it: its columns.
      bool found = false;
      for (auto& g : h.groups)
        if (g.name == s.node) {
          g.marked_rows = g.marked_rows || !receive;
          g.marked_cols = g.marked_cols || !send;
          found = true;
        }
      if (!found) continue;
    } else {
      const auto a = at.find(s.node);
      if (a == at.end()) continue;
      if (s.kind == suspect_kind::node) {
        (send ? h.marked_rows : receive ? h.marked_cols : h.marked_lines).push_back(a->second);
      } else {
        const auto b = at.find(s.peer);
        if (b == at.end()) continue;
        if (!receive) h.marked_cells.emplace_back(a->second, b->second);
        if (!send) h.marked_cells.emplace_back(b->second, a->second);
      }
    }
    if (++listed <= max_marks_listed)
      label += (label.empty() ? "" : ", ") + where_text(s) + " (" + kind_text(s) + ")";
  }
  if (listed > max_marks_listed)
    label += ", and " + std::to_string(listed - max_marks_listed) + " more";
  if (!label.empty()) h.marks_label = "marked in red: " + label;
}

std::string groups_text(const node_order& order) {
  std::string out = "nodes by leaf switch";
  if (order.groups.size() > max_marks_listed)
    return out + " (" + std::to_string(order.groups.size()) + " leaves)";
  out += ": ";
  for (std::size_t i = 0; i < order.groups.size(); ++i) {
    const auto& g = order.groups[i];
    out += (i ? ", " : "") + group_name(g.leaf) + " " + std::to_string(g.count) +
           (g.count == 1 ? " node" : " nodes");
  }
  return out;
}

}  // namespace

model::heatmap pair_matrix(const core::cluster_section& c, const pair_view& v,
                           const node_order& order, const std::vector<suspect>& suspects) {
  const std::size_t n = c.nodes.size();
  const auto& m = v.first();
  model::heatmap h;
  h.title = v.label + (v.directed() ? ", median per pair and way" : ", median per pair");
  h.row_label = v.directed() ? "sending node" : "node";
  h.col_label = v.directed() ? "receiving node" : "node";
  h.unit = m.unit;
  h.higher_is_better = m.better != "lower";
  h.raster = n > raster_above_nodes;
  for (std::size_t p = 0; p < n; ++p) {
    h.rows.push_back(c.nodes[order.nodes[p]].name);
    h.cols.push_back(h.rows.back());
  }
  for (const auto& g : order.groups)
    h.groups.push_back({g.first, g.count, group_name(g.leaf), false, false});
  // Only what was measured: a raster matrix as a list of cells (a sparse sweep of 4,096 nodes
  // has a few thousand, not 16 million), a small one as a full grid of NaN (empty) and figures.
  if (!h.raster) h.values.assign(n, std::vector<double>(n, std::nan("")));
  auto put = [&](std::size_t r, std::size_t col, double value) {
    if (h.raster)
      h.cells.push_back({r, col, value});
    else
      h.values[r][col] = value;
  };
  for (const auto& cell : view_cells(c, v)) {
    if (cell.from >= n || cell.to >= n) continue;
    const std::size_t r = order.position[cell.from], col = order.position[cell.to];
    put(r, col, cell.value);
    if (!v.directed()) put(col, r, cell.value);
  }
  if (h.raster) {
    h.row_label = v.directed() ? "sending node" : "node";
    h.col_label = v.directed() ? "receiving node" : "node";
    const std::string ticks = order.by_leaf() ? " (ticks: names)" : " index";
    h.row_label += ticks;
    h.col_label += ticks;
  }
  if (order.by_leaf()) h.col_label += "; " + groups_text(order);
  mark(h, c, v, order, suspects);
  return h;
}

}  // namespace gpubench::reports::cluster

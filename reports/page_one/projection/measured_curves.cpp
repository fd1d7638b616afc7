#include "reports/page_one/projection/measured_curves.hpp"

#include <algorithm>

#include "reports/page_one/projection/strategy.hpp"
#include "reports/views/allreduce_groups.hpp"

namespace gpubench::reports::page_one::projection {

namespace {

curve curve_of(const core::case_result& c) {
  curve cv{views::collective_nodes(c), double(views::collective_ranks(c)), {}};
  for (const auto& p : c.points)
    if (const auto s = views::collective_seconds(c, p)) cv.points.push_back({double(p.bytes), *s});
  std::sort(cv.points.begin(), cv.points.end(),
            [](const size_time& a, const size_time& b) { return a.bytes < b.bytes; });
  return cv;
}

op_curves op_curves_of(const std::string& operation, const views::collective_group& g) {
  op_curves oc{operation, {}, std::nullopt, 1, 1};
  std::vector<timed_point> all, across_nodes;
  for (const auto* c : g.cases) {
    auto cv = curve_of(*c);
    if (cv.points.empty()) continue;
    for (const auto& p : cv.points) {
      all.push_back({cv.ranks, p.bytes, p.seconds});
      if (cv.nodes >= 2) across_nodes.push_back(all.back());
    }
    oc.curves.push_back(std::move(cv));
  }
  if (!oc.curves.empty())
    oc.ranks_per_node = oc.curves.back().ranks / double(std::max(1LL, oc.curves.back().nodes));
  // The extrapolation is across nodes: the ranks of one node talk over NVLink or shared
  // memory, which a ring over the network does not model, so they fit only when the cases of
  // two or more nodes cannot.
  oc.fit = fit_alpha_beta(operation, across_nodes);
  if (oc.fit)
    oc.fit_min_nodes = 2;
  else
    oc.fit = fit_alpha_beta(operation, all);
  return oc;
}

const curve* at_nodes(const op_curves& c, long long nodes) {
  const auto it = std::find_if(c.curves.begin(), c.curves.end(),
                               [&](const curve& cv) { return cv.nodes == nodes; });
  return it == c.curves.end() ? nullptr : &*it;
}

}  // namespace

run_curves curves_for(const core::result_file& f, const std::vector<std::string>& operations) {
  run_curves out;
  for (const auto& c : f.results)
    if (c.kind.is(core::paths::collective) && c.status == core::case_status::ok &&
        !c.points.empty() &&
        std::find(out.measured.begin(), out.measured.end(), c.kind.operation) == out.measured.end())
      out.measured.push_back(c.kind.operation);
  for (const auto& op : out.measured)
    for (const auto& g : views::collective_groups(f, op))
      out.multi_node = out.multi_node || g.cases.size() >= 2;
  for (const auto& op : operations)
    if (std::find(out.measured.begin(), out.measured.end(), op) == out.measured.end())
      out.missing.push_back(op);
  if (operations.empty() || !out.missing.empty()) return out;
  // Groups of the first operation, matched by their parameters in every other operation.
  std::vector<std::vector<views::collective_group>> per_op;
  for (const auto& op : operations)
    per_op.push_back(views::collective_groups(f, op));
  for (const auto& first : per_op.front()) {
    strategy_group sg{first.label, {op_curves_of(operations.front(), first)}, {}};
    bool everywhere = true;
    for (std::size_t i = 1; i < operations.size() && everywhere; ++i) {
      const auto it = std::find_if(per_op[i].begin(), per_op[i].end(),
                                   [&](const auto& g) { return g.params == first.params; });
      if (it == per_op[i].end())
        everywhere = false;
      else
        sg.ops.push_back(op_curves_of(operations[i], *it));
    }
    if (!everywhere) continue;
    for (const auto& cv : sg.ops.front().curves)
      if (std::all_of(sg.ops.begin(), sg.ops.end(),
                      [&](const op_curves& oc) { return at_nodes(oc, cv.nodes) != nullptr; }))
        sg.node_counts.push_back(cv.nodes);
    if (!sg.node_counts.empty()) out.groups.push_back(std::move(sg));
  }
  return out;
}

std::optional<op_time> time_at(const op_curves& c, long long nodes, double bytes) {
  if (const auto* cv = at_nodes(c, nodes)) {
    if (const auto s = interpolate_seconds(cv->points, bytes)) return op_time{*s, false, false};
    if (cv->points.empty()) return std::nullopt;
    const auto& top = cv->points.back();
    if (bytes <= top.bytes || bytes > held_size_factor * top.bytes) return std::nullopt;
    return op_time{top.seconds * bytes / top.bytes, false, true};
  }
  if (c.curves.empty() || nodes < c.curves.back().nodes || !c.fit) return std::nullopt;
  // Beyond the measured node counts only, and only at a size the largest count measured (or
  // held beyond it).
  const auto& last = c.curves.back().points;
  if (last.empty() || bytes < last.front().bytes || bytes > held_size_factor * last.back().bytes)
    return std::nullopt;
  const auto s = predict_seconds(*c.fit, c.operation, double(nodes) * c.ranks_per_node, bytes);
  if (!s) return std::nullopt;
  return op_time{*s, true, bytes > last.back().bytes};
}

std::string measured_range_text(const op_curves& c, double bytes) {
  double lo = 0, hi = 0;
  for (const auto& cv : c.curves)
    if (!cv.points.empty()) {
      lo = lo == 0 ? cv.points.front().bytes : std::min(lo, cv.points.front().bytes);
      hi = std::max(hi, cv.points.back().bytes);
    }
  const auto size = [](double b) { return size_text(b); };
  if (hi == 0) return "nothing measured";
  return bytes > hi ? "largest measured: " + size(hi) : "smallest measured: " + size(lo);
}

}  // namespace gpubench::reports::page_one::projection

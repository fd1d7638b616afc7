// The training scaling projection section: per run, per gradient size, the step time and
// speedup of each allreduce group (transport, backend) at each measured node count, with the
// formula, its inputs and the arithmetic of one row, so the reader can check the model.
#include "reports/page_one/projection/projection.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "reports/model/text_format.hpp"
#include "reports/page_one/projection/projection_model.hpp"
#include "reports/views/allreduce_groups.hpp"

namespace gpubench::reports::page_one::projection {

using namespace model;
using namespace views;

namespace {

using projection::size_time;

struct curve {
  long long nodes = 1;
  std::vector<size_time> points;  // sorted by size
};

std::vector<curve> curves_of(const allreduce_group& g) {
  std::vector<curve> out;
  for (const auto* c : g.cases) {
    curve cv{allreduce_nodes(*c), {}};
    for (const auto& p : c->points)
      if (const auto s = allreduce_seconds(*c, p)) cv.points.push_back({double(p.bytes), *s});
    std::sort(cv.points.begin(), cv.points.end(),
              [](const size_time& a, const size_time& b) { return a.bytes < b.bytes; });
    if (!cv.points.empty()) out.push_back(std::move(cv));
  }
  return out;
}

std::string secs(double s) {
  return fmt::format("{:.4g} s", s);
}
std::string millis(double s) {
  return fmt::format("{:.4g} ms", s * 1e3);
}
std::string size_of(double bytes) {
  return format_size(static_cast<std::uint64_t>(bytes));
}

struct projected_group {
  std::string label;
  std::vector<curve> curves;
};

// The measured range of a group, for "not measured" cells.
std::string range_text(const curve& c, double bytes) {
  if (c.points.empty()) return "not measured";
  if (bytes > c.points.back().bytes)
    return "not measured (largest measured: " + size_of(c.points.back().bytes) + ")";
  return "not measured (smallest measured: " + size_of(c.points.front().bytes) + ")";
}

struct row_math {
  double allreduce = 0, step = 0, base_step = 0, base_allreduce = 0, speedup = 0;
  long long base_nodes = 1;
};

std::optional<row_math> compute(const projected_group& g, std::size_t i, double bytes,
                                const report_options& o) {
  const auto& base = g.curves.front();
  const auto a = projection::interpolate_seconds(g.curves[i].points, bytes);
  const auto a0 = projection::interpolate_seconds(base.points, bytes);
  if (!a || !a0) return std::nullopt;
  row_math m;
  m.allreduce = *a;
  m.base_allreduce = *a0;
  m.base_nodes = base.nodes;
  m.step = projection::step_seconds(o.step_compute_seconds, *a, o.overlap);
  m.base_step = projection::step_seconds(o.step_compute_seconds, *a0, o.overlap);
  m.speedup =
      projection::speedup(double(g.curves[i].nodes), double(base.nodes), m.base_step, m.step);
  return m;
}

std::string how_interpolated(const curve& c, double bytes) {
  const auto b = projection::bracket(c.points, bytes);
  if (!b) return "";
  if (b->first.bytes == b->second.bytes) return "measured at this size";
  return fmt::format("log-log between {} ({}) and {} ({})", size_of(b->first.bytes),
                     millis(b->first.seconds), size_of(b->second.bytes), millis(b->second.seconds));
}

void add_run(section& s, const std::string& run_label, std::vector<projected_group> groups,
             const report_options& o, bool& example_done) {
  std::vector<long long> counts;
  for (const auto& g : groups)
    for (const auto& c : g.curves)
      if (std::find(counts.begin(), counts.end(), c.nodes) == counts.end())
        counts.push_back(c.nodes);
  std::sort(counts.begin(), counts.end());
  for (const auto& grad : projection::gradients()) {
    table t;
    t.caption = fmt::format(
        "{}S = {} ({}); T = {}, overlap = {}. Cells: step time (allreduce time); speedup "
        "(efficiency)",
        run_label, grad.name, grad.basis, secs(o.step_compute_seconds), format_value(o.overlap));
    t.header = {"nodes"};
    for (const auto& g : groups) {
      t.header.push_back(g.label + " step");
      t.header.push_back(g.label + " speedup");
    }
    t.numeric.assign(t.header.size(), true);
    bool any = false;
    for (const long long n : counts) {
      std::vector<std::string> row = {std::to_string(n)};
      for (const auto& g : groups) {
        const auto it = std::find_if(g.curves.begin(), g.curves.end(),
                                     [&](const curve& c) { return c.nodes == n; });
        if (it == g.curves.end()) {
          row.insert(row.end(), {"-", "-"});
          continue;
        }
        const auto i = static_cast<std::size_t>(it - g.curves.begin());
        const auto m = compute(g, i, grad.bytes, o);
        if (!m) {
          const auto& missing =
              projection::interpolate_seconds(it->points, grad.bytes) ? g.curves.front() : *it;
          row.insert(row.end(), {range_text(missing, grad.bytes), "-"});
          continue;
        }
        any = true;
        row.push_back(fmt::format("{} ({})", secs(m->step), millis(m->allreduce)));
        row.push_back(fmt::format(
            "{} ({})", format_ratio(m->speedup),
            fmt::format("{:.0f} %", 100 * m->speedup * double(m->base_nodes) / double(n))));
      }
      t.rows.push_back(std::move(row));
    }
    if (!any) {
      double largest = 0;
      for (const auto& g : groups)
        for (const auto& c : g.curves)
          if (!c.points.empty()) largest = std::max(largest, c.points.back().bytes);
      s.blocks.push_back(note{fmt::format(
          "{}S = {} ({}): not measured (largest measured allreduce: {}). The model interpolates "
          "only between measured sizes; measure larger sizes (gpubench run --suite collectives "
          "--sizes ...) to project this gradient.",
          run_label, grad.name, grad.basis, size_of(largest))});
      continue;
    }
    s.blocks.push_back(std::move(t));
    if (example_done) continue;
    // The arithmetic of one row: the first group's largest node count with a value.
    for (const auto& g : groups) {
      for (std::size_t i = g.curves.size(); i-- > 1;) {
        const auto m = compute(g, i, grad.bytes, o);
        if (!m) continue;
        const long long n = g.curves[i].nodes;
        const std::string ovl = format_value(o.overlap);
        const std::string base_formula =
            m->base_nodes == 1
                ? fmt::format("speedup({0}) = {0} x {1} / {2} = {3:.3f}", n, secs(m->base_step),
                              secs(m->step), m->speedup)
                : fmt::format("speedup({0}) = ({0} / {1}) x {2} / {3} = {4:.3f}", n, m->base_nodes,
                              secs(m->base_step), secs(m->step), m->speedup);
        s.blocks.push_back(paragraph{fmt::format(
            "Worked example ({}, S = {}, n = {}): allreduce(S, {}) = {} ({}); step({}) = {} + "
            "{} x (1 - {}) = {}; allreduce(S, {}) = {} ({}); step({}) = {} + {} x (1 - {}) = "
            "{}; {}; efficiency = {:.3f} / {} = {:.0f} %.",
            g.label, grad.name, n, n, millis(m->allreduce),
            how_interpolated(g.curves[i], grad.bytes), n, secs(o.step_compute_seconds),
            secs(m->allreduce), ovl, secs(m->step), m->base_nodes, millis(m->base_allreduce),
            how_interpolated(g.curves.front(), grad.bytes), m->base_nodes,
            secs(o.step_compute_seconds), secs(m->base_allreduce), ovl, secs(m->base_step),
            base_formula, m->speedup, format_value(double(n) / double(m->base_nodes)),
            100 * m->speedup * double(m->base_nodes) / double(n))});
        example_done = true;
        break;
      }
      if (example_done) break;
    }
  }
}

}  // namespace

std::optional<section> projection_section(const std::vector<run_input>& runs,
                                          const report_options& options) {
  section s;
  s.title = "Training scaling projection (a model)";
  s.level = 1;
  const report_options defaults;
  s.blocks.push_back(paragraph{
      "A model, not a measurement: what the measured allreduce means for a data-parallel "
      "training job that computes for T seconds per step on every node and then allreduces a "
      "gradient of S bytes. step(n) = T + allreduce(S, n) x (1 - overlap); speedup(n) = n x "
      "step(1) / step(n); efficiency = speedup(n) / n. allreduce(S, n) is the allreduce time "
      "measured at n nodes (the time each case records), at S itself when measured, else "
      "interpolated log-log between the two nearest measured sizes; a gradient outside the "
      "measured sizes is shown as not measured, never extrapolated. The model leaves out "
      "everything but compute and the allreduce (data loading, optimizer, stragglers)."});
  s.blocks.push_back(paragraph{fmt::format(
      "Inputs: T = {} (gpubench report --step-time; default {}), overlap = {} (--overlap, the "
      "fraction of the allreduce hidden behind compute, 0 to 1; default {}: no overlap). "
      "Gradient sizes (decimal units): {}.",
      secs(options.step_compute_seconds), secs(defaults.step_compute_seconds),
      format_value(options.overlap), format_value(defaults.overlap), [] {
        std::string t;
        for (const auto& g : projection::gradients())
          t += (t.empty() ? "" : "; ") + g.name + " = " + g.basis;
        return t;
      }())});
  bool any = false, example_done = false;
  for (const auto& run : runs) {
    std::vector<projected_group> groups;
    for (const auto& g : allreduce_groups(run.file)) {
      projected_group pg{g.label, curves_of(g)};
      if (pg.curves.size() >= 2) groups.push_back(std::move(pg));
    }
    if (groups.empty()) continue;
    any = true;
    bool base_not_one = false;
    for (const auto& g : groups)
      base_not_one = base_not_one || g.curves.front().nodes != 1;
    if (base_not_one)
      s.blocks.push_back(
          note{"Where one node was not measured, speedup is relative to the smallest node count "
               "measured: speedup(n) = (n / n0) x step(n0) / step(n)."});
    add_run(s, runs.size() > 1 ? run.label + ": " : "", std::move(groups), options, example_done);
  }
  if (!any) return std::nullopt;
  return s;
}

}  // namespace gpubench::reports::page_one::projection

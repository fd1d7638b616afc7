// The machine diagram on a cairo surface: boxes on a grid of columns and rows, straight edges
// coloured by % of line rate, the measured figures written on each edge.
#include <algorithm>
#include <array>
#include <map>
#include <memory>

#include "reports/render/cairo_text.hpp"
#include "reports/render/chart_drawing.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

constexpr double title_h = 24;
constexpr double legend_h = 26;
constexpr double box_pad = 4;
constexpr double min_row = 42;
constexpr double label_font = 7;
// Width weights: box of column i, then the gap after it (edge labels are written in the gaps).
constexpr std::array<double, 5> box_w = {0.10, 0.14, 0.15, 0.13, 0.12};
constexpr std::array<double, 5> gap_w = {0.08, 0.21, 0.21, 0.04, 0};

struct geometry {
  std::vector<double> x;  // left of each column's boxes
  std::vector<double> w;  // box width per column
  std::vector<double> gap;
  std::vector<double> row_top;  // rows + 1 entries
  std::map<std::string, const diagram_node*> nodes;
};

void band_colour(cairo_t* cr, line_band b) {
  switch (b) {
    case line_band::good:
      cairo_set_source_rgb(cr, 0.15, 0.60, 0.20);
      return;
    case line_band::fair:
      cairo_set_source_rgb(cr, 0.93, 0.58, 0.05);
      return;
    case line_band::poor:
      cairo_set_source_rgb(cr, 0.84, 0.15, 0.16);
      return;
    case line_band::unknown:
      break;
  }
  cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
}

void fill_colour(cairo_t* cr, const std::string& kind) {
  if (kind == "memory")
    cairo_set_source_rgb(cr, 0.90, 0.92, 0.95);
  else if (kind == "cpu")
    cairo_set_source_rgb(cr, 0.84, 0.89, 0.96);
  else if (kind == "gpu")
    cairo_set_source_rgb(cr, 0.88, 0.95, 0.86);
  else if (kind == "nic" || kind == "rdma")
    cairo_set_source_rgb(cr, 0.99, 0.92, 0.83);
  else
    cairo_set_source_rgb(cr, 0.92, 0.89, 0.97);
}

std::string edge_text(const diagram_edge& e) {
  std::string out;
  for (const auto& l : e.lines)
    out += (out.empty() ? "" : "\n") + l;
  return out;
}

// The column whose gap carries an edge's label: the left end's.
int label_column(const geometry& g, const diagram_edge& e) {
  const auto a = g.nodes.at(e.from);
  const auto b = g.nodes.at(e.to);
  return std::min(a->column, b->column);
}

// The row an edge is drawn at: that of its one-row end (a device), else the left end's middle.
double edge_y(const geometry& g, const diagram_edge& e) {
  const auto a = g.nodes.at(e.from);
  const auto b = g.nodes.at(e.to);
  const auto* n = a->row_span == 1 ? a : b->row_span == 1 ? b : a;
  return (g.row_top[static_cast<std::size_t>(n->row)] +
          g.row_top[static_cast<std::size_t>(n->row + n->row_span)]) /
         2;
}

bool drawable(const geometry& g, const diagram_edge& e) {
  return g.nodes.contains(e.from) && g.nodes.contains(e.to);
}

geometry layout(cairo_t* cr, const diagram& d, double width) {
  geometry g;
  for (const auto& n : d.nodes)
    g.nodes[n.id] = &n;
  const auto cols = static_cast<std::size_t>(std::clamp(d.columns, 1, 5));
  double total = 0;
  for (std::size_t i = 0; i < cols; ++i)
    total += box_w[i] + (i + 1 < cols ? gap_w[i] : 0);
  // A small diagram (no devices) keeps its natural proportions instead of filling the width.
  const double scale = (width - 8) / std::max(total, 1.0);
  double x = 4;
  for (std::size_t i = 0; i < cols; ++i) {
    g.x.push_back(x);
    g.w.push_back(box_w[i] * scale);
    g.gap.push_back(i + 1 < cols ? gap_w[i] * scale : 0);
    x += g.w.back() + g.gap.back();
  }
  // Rows grow to hold the labels of the edges drawn at them.
  const int rows = std::max(d.rows, 1);
  std::vector<double> h(static_cast<std::size_t>(rows), min_row);
  for (const auto& e : d.edges) {
    if (!drawable(g, e) || e.lines.empty()) continue;
    const auto a = g.nodes.at(e.from);
    const auto b = g.nodes.at(e.to);
    if (a->column == b->column) continue;
    const auto* n = a->row_span == 1 ? a : b->row_span == 1 ? b : nullptr;
    if (!n || n->row < 0 || n->row >= rows) continue;
    const auto col = static_cast<std::size_t>(label_column(g, e));
    if (col >= g.gap.size()) continue;
    const auto l = make_layout(cr, edge_text(e), {label_font, false, g.gap[col] - 8});
    auto& rh = h[static_cast<std::size_t>(n->row)];
    rh = std::max(rh, layout_height(l.get()) + 10);
  }
  // Boxes spanning rows need room for their own text too.
  for (const auto& n : d.nodes) {
    if (n.row < 0 || n.row >= rows) continue;
    const auto col = static_cast<std::size_t>(std::clamp(n.column, 0, static_cast<int>(cols) - 1));
    const auto l = make_layout(cr, n.label + "\n" + n.detail, {7.5, false, g.w[col] - 8});
    const double need = layout_height(l.get()) + 2 * box_pad + 6;
    double have = 0;
    for (int r = n.row; r < std::min(rows, n.row + n.row_span); ++r)
      have += h[static_cast<std::size_t>(r)];
    if (have < need) h[static_cast<std::size_t>(n.row)] += need - have;
  }
  g.row_top.push_back(title_h);
  for (double v : h)
    g.row_top.push_back(g.row_top.back() + v);
  return g;
}

using surface_ptr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using context_ptr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

}  // namespace

double diagram_height(const diagram& d, double width) {
  surface_ptr s(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1), &cairo_surface_destroy);
  context_ptr cr(cairo_create(s.get()), &cairo_destroy);
  const auto g = layout(cr.get(), d, width);
  return g.row_top.back() + legend_h + 4;
}

void draw_diagram(cairo_t* cr, const diagram& d, double width) {
  cairo_save(cr);
  const auto g = layout(cr, d, width);
  const double height = g.row_top.back() + legend_h + 4;
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, width, height);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  draw_text(cr, d.title, 4, 4, {11, true, width - 8});
  const auto cols = static_cast<int>(g.x.size());
  auto col_of = [&](const diagram_node& n) { return std::clamp(n.column, 0, cols - 1); };
  auto box_left = [&](const diagram_node& n) { return g.x[static_cast<std::size_t>(col_of(n))]; };
  auto box_right = [&](const diagram_node& n) {
    return box_left(n) + g.w[static_cast<std::size_t>(col_of(n))];
  };
  auto box_top = [&](const diagram_node& n) {
    return g.row_top[static_cast<std::size_t>(n.row)] + box_pad;
  };
  auto box_bottom = [&](const diagram_node& n) {
    return g.row_top[static_cast<std::size_t>(n.row + n.row_span)] - box_pad;
  };
  auto valid = [&](const diagram_node& n) {
    return n.row >= 0 && n.row + n.row_span < static_cast<int>(g.row_top.size());
  };

  // Edges under the boxes.
  for (const auto& e : d.edges) {
    if (!drawable(g, e)) continue;
    const auto& a = *g.nodes.at(e.from);
    const auto& b = *g.nodes.at(e.to);
    if (!valid(a) || !valid(b)) continue;
    band_colour(cr, e.band);
    cairo_set_line_width(cr, e.measured ? 3.0 : 1.0);
    const double dash[] = {3.0, 3.0};
    cairo_set_dash(cr, dash, e.measured ? 0 : 2, 0);
    if (a.column == b.column) {
      const double xm = (box_left(a) + box_right(a)) / 2;
      cairo_move_to(cr, xm, box_bottom(a));
      cairo_line_to(cr, xm, box_top(b));
    } else {
      const auto& l = a.column < b.column ? a : b;
      const auto& r = a.column < b.column ? b : a;
      const double y = edge_y(g, e);
      cairo_move_to(cr, box_right(l), y);
      cairo_line_to(cr, box_left(r), y);
    }
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);

  for (const auto& n : d.nodes) {
    if (!valid(n)) continue;
    const double x = box_left(n), y = box_top(n);
    const double w = box_right(n) - x, h = box_bottom(n) - y;
    fill_colour(cr, n.kind);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.45, 0.5, 0.58);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    const double th = draw_text(cr, n.label, x + 4, y + 3, {8.5, true, w - 8});
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    draw_text(cr, n.detail, x + 4, y + 3 + th, {7, false, w - 8});
    cairo_restore(cr);
  }

  // Labels in the gaps, on a white ground over their edge.
  for (const auto& e : d.edges) {
    if (!drawable(g, e) || e.lines.empty()) continue;
    const auto& a = *g.nodes.at(e.from);
    const auto& b = *g.nodes.at(e.to);
    if (a.column == b.column || !valid(a) || !valid(b)) continue;
    const auto col = static_cast<std::size_t>(label_column(g, e));
    if (col >= g.gap.size() || g.gap[col] < 16) continue;
    const auto l = make_layout(cr, edge_text(e), {label_font, false, g.gap[col] - 8});
    const double lw = layout_width(l.get()), lh = layout_height(l.get());
    const double lx = g.x[col] + g.w[col] + 4;
    const double ly = edge_y(g, e) - lh / 2;
    // The ground spans the stripe, the text (drawn 3 units in) and a margin after it.
    cairo_set_source_rgba(cr, 1, 1, 1, 0.92);
    cairo_rectangle(cr, lx - 1, ly - 1, lw + 8, lh + 2);
    cairo_fill(cr);
    band_colour(cr, e.band);
    cairo_rectangle(cr, lx - 1, ly - 1, 2, lh + 2);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    draw_layout(cr, l.get(), lx + 3, ly);
  }

  // Legend: what the colours mean.
  double lx = 4;
  const double ly = g.row_top.back() + 8;
  const std::array<std::pair<line_band, const char*>, 4> legend = {
      {{line_band::good, ">= 80 % of line rate"},
       {line_band::fair, "50-80 %"},
       {line_band::poor, "< 50 %"},
       {line_band::unknown, "no line rate or not measured (dashed)"}}};
  for (const auto& [band, text] : legend) {
    band_colour(cr, band);
    cairo_rectangle(cr, lx, ly + 3, 16, 4);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    const auto l = make_layout(cr, text, {7.5, false});
    draw_layout(cr, l.get(), lx + 20, ly);
    lx += 20 + layout_width(l.get()) + 14;
  }
  cairo_restore(cr);
}

}  // namespace gpubench::reports::render

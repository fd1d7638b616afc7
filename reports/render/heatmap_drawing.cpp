#include "reports/render/heatmap_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "reports/render/cairo_text.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

struct shade_rgb {
  double r, g, b;
};

shade_rgb shade_colour(double t) {
  return {0.93 - 0.8 * t, 0.95 - 0.6 * t, 0.98 - 0.3 * t};
}

// Mid grey: lighter than the best cells, darker than the worst, so a pair not measured (most of a
// sparse sweep's matrix) is never taken for a slow one.
constexpr shade_rgb empty_colour{0.80, 0.80, 0.80};

void mark_colour(cairo_t* cr) {
  cairo_set_source_rgb(cr, 0.85, 0.05, 0.05);
}

// Index ticks along the top and left of a raster matrix: 0 and every `step` nodes.
void draw_index_ticks(cairo_t* cr, const heatmap& m, const heatmap_grid& g) {
  const std::size_t n = m.rows.size();
  std::size_t step = 1;
  for (std::size_t s : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000})
    if (static_cast<double>(n) / static_cast<double>(s) <= 10) {
      step = s;
      break;
    }
  const text_style head{7, false, -1, PANGO_ALIGN_LEFT, false};
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  cairo_set_line_width(cr, 0.6);
  for (std::size_t i = 0; i < n; i += step) {
    const double at = (static_cast<double>(i) + 0.5) * g.cell;
    // Rows reordered into groups (nodes by leaf switch) are no longer in index order: name them.
    const auto l = make_layout(cr, m.groups.empty() ? std::to_string(i) : m.rows[i], head);
    draw_layout(cr, l.get(), g.x0 + at - layout_width(l.get()) / 2, g.y0 - 18);
    draw_layout(cr, l.get(), g.x0 - 8 - layout_width(l.get()),
                g.y0 + at - layout_height(l.get()) / 2);
    cairo_move_to(cr, g.x0 + at, g.y0 - 5);
    cairo_line_to(cr, g.x0 + at, g.y0 - 1);
    cairo_move_to(cr, g.x0 - 5, g.y0 + at);
    cairo_line_to(cr, g.x0 - 1, g.y0 + at);
    cairo_stroke(cr);
  }
}

}  // namespace

double heatmap_shade(double v, double lo, double hi, bool higher_is_better) {
  const double t = hi > lo ? (v - lo) / (hi - lo) : 1;
  return higher_is_better ? t : 1 - t;
}

void set_heatmap_colour(cairo_t* cr, double v, double shade) {
  const shade_rgb c = std::isfinite(v) ? shade_colour(shade) : empty_colour;
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

void draw_heatmap_raster(cairo_t* cr, const heatmap& m, const heatmap_grid& g, double lo,
                         double hi) {
  const std::size_t rows = m.rows.size();
  const std::size_t cols = m.cols.size();
  if (rows == 0 || cols == 0) return;
  // Above max_raster_side nodes one pixel stands for a square block of cells and shows its worst
  // value: a lone slow pair (or a sparse sweep's few measured cells) stays visible where the
  // viewer's scaling would average it away.
  const std::size_t block = (std::max(rows, cols) + max_raster_side - 1) / max_raster_side;
  const std::size_t height = (rows + block - 1) / block;
  const std::size_t width = (cols + block - 1) / block;
  std::vector<double> worst(height * width, std::nan(""));
  auto take = [&](std::size_t i, std::size_t j, double v) {
    if (i >= rows || j >= cols || !std::isfinite(v)) return;
    double& w = worst[(i / block) * width + j / block];
    if (!std::isfinite(w) || (m.higher_is_better ? v < w : v > w)) w = v;
  };
  for (std::size_t i = 0; i < m.values.size(); ++i)
    for (std::size_t j = 0; j < m.values[i].size(); ++j)
      take(i, j, m.values[i][j]);
  for (const auto& c : m.cells)
    take(c.row, c.col, c.value);
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> image(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(width),
                                 static_cast<int>(height)),
      &cairo_surface_destroy);
  cairo_surface_flush(image.get());
  unsigned char* data = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  if (data == nullptr) return;  // out of memory: the surface is in an error state
  // 64 shades are more than the eye tells apart on a screen, and a few levels compress far
  // better in the embedded PNG than a distinct colour per cell.
  auto level = [](double x) { return static_cast<std::uint32_t>(std::lround(x * 255)); };
  for (std::size_t i = 0; i < height; ++i) {
    auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(i) * stride);
    for (std::size_t j = 0; j < width; ++j) {
      const double v = worst[i * width + j];
      const double t = std::round(heatmap_shade(v, lo, hi, m.higher_is_better) * 63) / 63;
      const shade_rgb c = std::isfinite(v) ? shade_colour(t) : empty_colour;
      row[j] = (level(c.r) << 16) | (level(c.g) << 8) | level(c.b);
    }
  }
  cairo_surface_mark_dirty(image.get());
  cairo_save(cr);
  cairo_translate(cr, g.x0, g.y0);
  cairo_scale(cr, g.cell * static_cast<double>(block), g.cell * static_cast<double>(block));
  cairo_set_source_surface(cr, image.get(), 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);  // crisp cells
  const double b = static_cast<double>(block);
  cairo_rectangle(cr, 0, 0, static_cast<double>(cols) / b, static_cast<double>(rows) / b);
  cairo_fill(cr);
  cairo_restore(cr);
  draw_index_ticks(cr, m, g);
}

void draw_heatmap_groups(cairo_t* cr, const heatmap& m, const heatmap_grid& g) {
  if (m.groups.empty()) return;
  const double side_r = g.cell * static_cast<double>(m.rows.size());
  const double side_c = g.cell * static_cast<double>(m.cols.size());
  cairo_save(cr);
  cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
  cairo_set_line_width(cr, m.raster ? 0.8 : 2.0);
  // Lines closer than a few points apart would cover the cells with a mesh (128 leaves of a
  // 4,096-node matrix): then only a marked group is drawn.
  const bool lines = side_r / static_cast<double>(m.groups.size()) >= min_group_span;
  for (const auto& grp : m.groups) {
    if (!lines || grp.first == 0 || grp.first >= m.rows.size()) continue;
    const double at = g.cell * static_cast<double>(grp.first) - (m.raster ? 0 : 0.5);
    cairo_move_to(cr, g.x0, g.y0 + at);
    cairo_line_to(cr, g.x0 + side_c, g.y0 + at);
    cairo_move_to(cr, g.x0 + at, g.y0);
    cairo_line_to(cr, g.x0 + at, g.y0 + side_r);
  }
  cairo_stroke(cr);
  // A marked group (a slow uplink): its rows and columns outlined, a bar beside them, its name.
  mark_colour(cr);
  for (const auto& grp : m.groups) {
    if (!grp.marked_rows && !grp.marked_cols) continue;
    const double from = g.cell * static_cast<double>(grp.first);
    const double span = std::max(1.0, g.cell * static_cast<double>(grp.count));
    cairo_set_line_width(cr, 1.4);
    if (grp.marked_rows) cairo_rectangle(cr, g.x0 - 0.5, g.y0 + from - 0.5, side_c, span);
    if (grp.marked_cols) cairo_rectangle(cr, g.x0 + from - 0.5, g.y0 - 0.5, span, side_r);
    cairo_stroke(cr);
    // A bar beside the rows and under the columns, as the triangles of a marked node.
    cairo_set_line_width(cr, 3);
    if (grp.marked_rows) {
      cairo_move_to(cr, g.x0 + side_c + 4, g.y0 + from);
      cairo_line_to(cr, g.x0 + side_c + 4, g.y0 + from + span);
    }
    if (grp.marked_cols) {
      cairo_move_to(cr, g.x0 + from, g.y0 + side_r + 4);
      cairo_line_to(cr, g.x0 + from + span, g.y0 + side_r + 4);
    }
    cairo_stroke(cr);
    if (m.raster) {
      const auto l = make_layout(cr, grp.name, {7, true, -1, PANGO_ALIGN_LEFT, false});
      draw_layout(cr, l.get(), g.x0 + side_c + 11,
                  g.y0 + from + span / 2 - layout_height(l.get()) / 2);
    }
  }
  cairo_restore(cr);
}

void draw_heatmap_marks(cairo_t* cr, const heatmap& m, const heatmap_grid& g) {
  const double side_r = g.cell * static_cast<double>(m.rows.size());
  const double side_c = g.cell * static_cast<double>(m.cols.size());
  cairo_save(cr);
  mark_colour(cr);
  cairo_set_line_width(cr, 1.4);
  // A marked row, column or both (a slow node; on a directed matrix slow one way only).
  auto line = [&](std::size_t i, bool row, bool col) {
    const double at = g.cell * static_cast<double>(i);
    if (m.raster) {
      // Triangles pointing at the row and the column: the line itself may be under a pixel.
      const double mid = at + g.cell / 2;
      if (row) {
        cairo_move_to(cr, g.x0 + side_c + 2, g.y0 + mid);
        cairo_line_to(cr, g.x0 + side_c + 9, g.y0 + mid - 4);
        cairo_line_to(cr, g.x0 + side_c + 9, g.y0 + mid + 4);
        cairo_close_path(cr);
      }
      if (col) {
        cairo_move_to(cr, g.x0 + mid, g.y0 + side_r + 2);
        cairo_line_to(cr, g.x0 + mid - 4, g.y0 + side_r + 9);
        cairo_line_to(cr, g.x0 + mid + 4, g.y0 + side_r + 9);
        cairo_close_path(cr);
      }
      cairo_fill(cr);
      if (row && i < m.rows.size()) {
        const auto l = make_layout(cr, m.rows[i], {7, true, -1, PANGO_ALIGN_LEFT, false});
        draw_layout(cr, l.get(), g.x0 + side_c + 11, g.y0 + mid - layout_height(l.get()) / 2);
      }
    } else {
      if (row) cairo_rectangle(cr, g.x0 - 0.5, g.y0 + at - 0.5, side_c, g.cell);
      if (col) cairo_rectangle(cr, g.x0 + at - 0.5, g.y0 - 0.5, g.cell, side_r);
      cairo_stroke(cr);
    }
  };
  for (std::size_t i : m.marked_lines)
    line(i, true, true);
  for (std::size_t i : m.marked_rows)
    line(i, true, false);
  for (std::size_t i : m.marked_cols)
    line(i, false, true);
  for (const auto& [i, j] : m.marked_cells) {
    const double x = g.x0 + g.cell * (static_cast<double>(j) + 0.5);
    const double y = g.y0 + g.cell * (static_cast<double>(i) + 0.5);
    if (m.raster) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, x, y, std::max(6.0, g.cell), 0, 2 * M_PI);
    } else {
      cairo_rectangle(cr, x - g.cell / 2 - 0.5, y - g.cell / 2 - 0.5, g.cell, g.cell);
    }
    cairo_stroke(cr);
  }
  cairo_restore(cr);
}

}  // namespace gpubench::reports::render

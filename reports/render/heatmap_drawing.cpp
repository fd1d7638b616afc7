#include "reports/render/heatmap_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

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

constexpr shade_rgb empty_colour{0.92, 0.92, 0.92};

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
    const auto l = make_layout(cr, std::to_string(i), head);
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
  const int rows = static_cast<int>(m.rows.size());
  const int cols = static_cast<int>(m.cols.size());
  if (rows == 0 || cols == 0) return;
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> image(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, cols, rows), &cairo_surface_destroy);
  cairo_surface_flush(image.get());
  unsigned char* data = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  if (data == nullptr) return;  // out of memory: the surface is in an error state
  // 64 shades are more than the eye tells apart on a screen, and a few levels compress far
  // better in the embedded PNG than a distinct colour per cell.
  auto level = [](double x) { return static_cast<std::uint32_t>(std::lround(x * 255)); };
  for (int i = 0; i < rows; ++i) {
    auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(i) * stride);
    const auto& values = m.values[static_cast<std::size_t>(i)];
    for (int j = 0; j < cols; ++j) {
      const double v = static_cast<std::size_t>(j) < values.size()
                           ? values[static_cast<std::size_t>(j)]
                           : std::nan("");
      const double t = std::round(heatmap_shade(v, lo, hi, m.higher_is_better) * 63) / 63;
      const shade_rgb c = std::isfinite(v) ? shade_colour(t) : empty_colour;
      row[j] = (level(c.r) << 16) | (level(c.g) << 8) | level(c.b);
    }
  }
  cairo_surface_mark_dirty(image.get());
  cairo_save(cr);
  cairo_translate(cr, g.x0, g.y0);
  cairo_scale(cr, g.cell, g.cell);
  cairo_set_source_surface(cr, image.get(), 0, 0);
  cairo_rectangle(cr, 0, 0, cols, rows);
  cairo_fill(cr);
  cairo_restore(cr);
  draw_index_ticks(cr, m, g);
}

void draw_heatmap_marks(cairo_t* cr, const heatmap& m, const heatmap_grid& g) {
  const double side_r = g.cell * static_cast<double>(m.rows.size());
  const double side_c = g.cell * static_cast<double>(m.cols.size());
  cairo_save(cr);
  mark_colour(cr);
  cairo_set_line_width(cr, 1.4);
  for (std::size_t i : m.marked_lines) {
    const double at = g.cell * static_cast<double>(i);
    if (m.raster) {
      // Triangles pointing at the row and the column: the line itself may be under a pixel.
      const double mid = at + g.cell / 2;
      cairo_move_to(cr, g.x0 + side_c + 2, g.y0 + mid);
      cairo_line_to(cr, g.x0 + side_c + 9, g.y0 + mid - 4);
      cairo_line_to(cr, g.x0 + side_c + 9, g.y0 + mid + 4);
      cairo_close_path(cr);
      cairo_move_to(cr, g.x0 + mid, g.y0 + side_r + 2);
      cairo_line_to(cr, g.x0 + mid - 4, g.y0 + side_r + 9);
      cairo_line_to(cr, g.x0 + mid + 4, g.y0 + side_r + 9);
      cairo_close_path(cr);
      cairo_fill(cr);
      if (i < m.rows.size()) {
        const auto l = make_layout(cr, m.rows[i], {7, true, -1, PANGO_ALIGN_LEFT, false});
        draw_layout(cr, l.get(), g.x0 + side_c + 11, g.y0 + mid - layout_height(l.get()) / 2);
      }
    } else {
      cairo_rectangle(cr, g.x0 - 0.5, g.y0 + at - 0.5, side_c, g.cell);
      cairo_rectangle(cr, g.x0 + at - 0.5, g.y0 - 0.5, g.cell, side_r);
      cairo_stroke(cr);
    }
  }
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

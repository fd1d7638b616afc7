#include "reports/render/chart_drawing.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "reports/model/text_format.hpp"
#include "reports/render/cairo_text.hpp"
#include "reports/render/heatmap_drawing.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

struct rgb {
  double r, g, b;
};

// Distinguishable on screen and in grey print (Tableau 10).
constexpr std::array<rgb, 10> palette = {{{0.12, 0.47, 0.71},
                                          {1.00, 0.50, 0.05},
                                          {0.17, 0.63, 0.17},
                                          {0.84, 0.15, 0.16},
                                          {0.58, 0.40, 0.74},
                                          {0.55, 0.34, 0.29},
                                          {0.89, 0.47, 0.76},
                                          {0.50, 0.50, 0.50},
                                          {0.74, 0.74, 0.13},
                                          {0.09, 0.75, 0.81}}};

constexpr double plot_height = 150;
constexpr double margin_left = 64;
constexpr double margin_right = 16;
constexpr double title_height = 26;
constexpr double axis_height = 40;
constexpr double legend_line = 14;

void set_colour(cairo_t* cr, const rgb& c, double alpha = 1) {
  cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

std::size_t legend_entries(const line_chart& c) {
  return c.series.size() + c.lines.size() + c.marks.size();
}

// 1, 2, 5 x 10^k steps giving about `wanted` ticks over [0, hi].
double nice_step(double hi, int wanted) {
  const double raw = hi / wanted;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

// The title wraps at the chart's width; the plot starts below however many lines it took.
double title_space(const std::string& title, double width) {
  const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1), &cairo_surface_destroy);
  const std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()),
                                                              &cairo_destroy);
  const auto l = make_layout(cr.get(), title, {11, true, width - margin_left});
  return std::max(title_height, layout_height(l.get()) + 10);
}

struct axes {
  double x0, x1, y0, y1;  // plot area in surface units
  double lx0, lx1;        // log2 of the byte range; the run range on a runs axis
  double vy0, vy1;        // value range (log10 of it when log_y)
  bool log_y;
  bool runs;  // x is a run's number, linear
  double x(double v) const {
    return x0 + ((runs ? v : std::log2(v)) - lx0) / (lx1 - lx0) * (x1 - x0);
  }
  double y(double v) const {
    const double t =
        log_y ? (std::log10(std::max(v, 1e-12)) - vy0) / (vy1 - vy0) : (v - vy0) / (vy1 - vy0);
    return y1 - std::clamp(t, -0.02, 1.02) * (y1 - y0);
  }
};

axes make_axes(const line_chart& c, double width) {
  double xmin = INFINITY, xmax = 0, vmin = INFINITY, vmax = 0;
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      xmin = std::min(xmin, p.x);
      xmax = std::max(xmax, p.x);
      if (p.y > 0) vmin = std::min(vmin, p.y);
      vmax = std::max({vmax, p.y, s.has_band ? p.band_high : 0.0});
    }
  for (const auto& l : c.lines)
    vmax = std::max(vmax, l.value);
  if (!std::isfinite(xmin)) xmin = xmax = 1;
  axes a{};
  a.x0 = margin_left;
  a.x1 = width - margin_right;
  a.y0 = title_space(c.title, width);
  a.y1 = a.y0 + plot_height;
  a.runs = c.x_axis == x_scale::runs;
  a.lx0 = a.runs ? xmin - 0.5 : std::log2(xmin);
  a.lx1 = a.runs ? xmax + 0.5 : std::log2(xmax);
  if (a.lx1 - a.lx0 < 1) {
    a.lx0 -= 1;
    a.lx1 += 1;
  }
  a.log_y = c.log_y && std::isfinite(vmin) && vmin > 0;
  if (a.log_y) {
    a.vy0 = std::floor(std::log10(vmin));
    a.vy1 = std::ceil(std::log10(vmax));
    if (a.vy1 <= a.vy0) a.vy1 = a.vy0 + 1;
  } else {
    a.vy0 = 0;
    a.vy1 = vmax > 0 ? vmax * 1.08 : 1;
  }
  return a;
}

// One x tick: a grid line across the plot at x and its label centred under it.
void draw_x_tick(cairo_t* cr, const axes& a, double x, const std::string& label,
                 const text_style& tick) {
  cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
  cairo_move_to(cr, x, a.y0);
  cairo_line_to(cr, x, a.y1);
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
  const auto l = make_layout(cr, label, tick);
  draw_layout(cr, l.get(), x - layout_width(l.get()) / 2, a.y1 + 4);
}

// X ticks at powers of two, thinned to at most about 12 labels.
void draw_size_ticks(cairo_t* cr, const axes& a, const text_style& tick) {
  const int first = static_cast<int>(std::ceil(a.lx0 - 1e-9));
  const int last = static_cast<int>(std::floor(a.lx1 + 1e-9));
  const int every = std::max(1, (last - first) / 12 + 1);
  for (int e = first; e <= last; ++e) {
    if ((e - first) % every != 0) continue;
    const double bytes = std::ldexp(1.0, e);
    const double x = a.x(bytes);
    draw_x_tick(cr, a, x, format_size(static_cast<std::uint64_t>(bytes)), tick);
  }
}

// X ticks at run numbers, 1, 2, 5 x 10^k apart.
void draw_run_ticks(cairo_t* cr, const axes& a, const text_style& tick) {
  const double step = std::max(1.0, nice_step(a.lx1 - a.lx0, 10));
  for (double r = step * std::ceil(a.lx0 / step); r <= a.lx1; r += step) {
    if (r < 1) continue;
    const double x = a.x(r);
    draw_x_tick(cr, a, x, fmt::format("{:g}", r), tick);
  }
}

void draw_grid(cairo_t* cr, const axes& a, const line_chart& c) {
  const text_style tick{8, false, -1, PANGO_ALIGN_LEFT, false};
  cairo_set_line_width(cr, 0.5);
  // Y ticks.
  std::vector<double> ys;
  if (a.log_y) {
    for (double e = a.vy0; e <= a.vy1 + 1e-9; e += 1)
      ys.push_back(std::pow(10, e));
  } else {
    const double step = nice_step(a.vy1, 5);
    for (double v = 0; v <= a.vy1 + 1e-9; v += step)
      ys.push_back(v);
  }
  for (double v : ys) {
    const double y = a.y(v);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, a.x0, y);
    cairo_line_to(cr, a.x1, y);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    const auto l = make_layout(cr, fmt::format("{:g}", v), tick);
    draw_layout(cr, l.get(), a.x0 - 6 - layout_width(l.get()), y - layout_height(l.get()) / 2);
  }
  if (a.runs) {
    draw_run_ticks(cr, a, tick);
  } else {
    draw_size_ticks(cr, a, tick);
  }
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
  cairo_stroke(cr);
  const text_style label{9, false, -1, PANGO_ALIGN_LEFT, false};
  const auto xl = make_layout(cr, c.x_label + (a.runs ? "" : " (bytes, log2 scale)"), label);
  draw_layout(cr, xl.get(), (a.x0 + a.x1 - layout_width(xl.get())) / 2, a.y1 + 20);
  const auto yl = make_layout(cr, c.y_label + (a.log_y ? ", log scale" : ""), label);
  cairo_save(cr);
  cairo_move_to(cr, 4, (a.y0 + a.y1 + layout_width(yl.get())) / 2);
  cairo_rotate(cr, -M_PI / 2);
  pango_cairo_show_layout(cr, yl.get());
  cairo_restore(cr);
}

void draw_series(cairo_t* cr, const axes& a, const chart_series& s, const rgb& colour) {
  if (s.points.empty()) return;
  cairo_save(cr);
  cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
  cairo_clip(cr);
  if (s.has_band) {
    cairo_move_to(cr, a.x(s.points.front().x), a.y(s.points.front().band_high));
    for (const auto& p : s.points)
      cairo_line_to(cr, a.x(p.x), a.y(p.band_high));
    for (auto it = s.points.rbegin(); it != s.points.rend(); ++it)
      cairo_line_to(cr, a.x(it->x), a.y(it->band_low));
    cairo_close_path(cr);
    set_colour(cr, colour, 0.18);
    cairo_fill(cr);
  }
  set_colour(cr, colour);
  cairo_set_line_width(cr, 1.6);
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const double x = a.x(s.points[i].x), y = a.y(s.points[i].y);
    if (i == 0)
      cairo_move_to(cr, x, y);
    else
      cairo_line_to(cr, x, y);
  }
  cairo_stroke(cr);
  for (const auto& p : s.points) {
    cairo_arc(cr, a.x(p.x), a.y(p.y), 2.2, 0, 2 * M_PI);
    cairo_fill(cr);
  }
  cairo_restore(cr);
}

// A change point solid red, a fingerprint event dashed grey.
void set_mark_style(cairo_t* cr, const x_mark& m) {
  const double dashed[] = {4, 3};
  cairo_set_dash(cr, m.event ? dashed : nullptr, m.event ? 2 : 0, 0);
  cairo_set_line_width(cr, m.event ? 1.2 : 1.6);
  if (m.event)
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  else
    cairo_set_source_rgb(cr, 0.80, 0.10, 0.10);
}

void set_line_style(cairo_t* cr, const reference_line& l) {
  const double dashed[] = {6, 3};
  const double dotted[] = {1.5, 2.5};
  cairo_set_dash(cr, l.is_reference ? dotted : dashed, 2, 0);
  cairo_set_line_width(cr, l.is_reference ? 1.6 : 1.2);
  if (l.is_reference)
    cairo_set_source_rgb(cr, 0.60, 0.30, 0.05);
  else if (l.series >= 0)
    set_colour(cr, palette[static_cast<std::size_t>(l.series) % palette.size()]);
  else
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
}

double heatmap_cell(const heatmap& m, double width) {
  const double cols = static_cast<double>(std::max<std::size_t>(1, m.cols.size()));
  // A raster matrix leaves room on the right for the names of marked rows.
  return std::min(48.0, (width - (m.raster ? 160 : 90)) / cols);
}

// Room above the cells for the column names: one line, or the longest name standing on end
// when names are wider than the cells (estimated: no cairo context to measure with here).
double heatmap_header(const heatmap& m, double cell) {
  if (m.raster) return 20;
  std::size_t longest = 0;
  for (const auto& c : m.cols)
    longest = std::max(longest, c.size());
  const double wide = 8 * 0.6 * static_cast<double>(longest);
  return wide + 4 > cell ? wide + 8 : 20;
}

void draw_heatmap_labels(cairo_t* cr, const heatmap& m, double x0, double y0, double cell) {
  const text_style head{8, false, -1, PANGO_ALIGN_LEFT, false};
  const bool upright = heatmap_header(m, cell) > 20;
  auto in = [](const std::vector<std::size_t>& v, std::size_t i) {
    return std::find(v.begin(), v.end(), i) != v.end();
  };
  auto marked_col = [&](std::size_t j) { return in(m.marked_lines, j) || in(m.marked_cols, j); };
  auto marked = [&](std::size_t i) { return in(m.marked_lines, i) || in(m.marked_rows, i); };
  for (std::size_t j = 0; j < m.cols.size(); ++j) {
    const auto l = make_layout(cr, m.cols[j], head);
    marked_col(j) ? cairo_set_source_rgb(cr, 0.80, 0.05, 0.05)
                  : cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    const double cx = x0 + (static_cast<double>(j) + 0.5) * cell;
    if (!upright) {
      draw_layout(cr, l.get(), cx - layout_width(l.get()) / 2, y0 - 16);
      continue;
    }
    cairo_save(cr);
    cairo_translate(cr, cx - layout_height(l.get()) / 2, y0 - 4);
    cairo_rotate(cr, -M_PI / 2);
    draw_layout(cr, l.get(), 0, 0);
    cairo_restore(cr);
  }
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    const double y = y0 + static_cast<double>(i) * cell;
    const auto l = make_layout(cr, m.rows[i], head);
    marked(i) ? cairo_set_source_rgb(cr, 0.80, 0.05, 0.05)
              : cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    draw_layout(cr, l.get(), x0 - 6 - layout_width(l.get()),
                y + (cell - layout_height(l.get())) / 2);
  }
}

}  // namespace

double chart_height(const line_chart& c, double width) {
  return title_space(c.title, width) + plot_height + axis_height +
         static_cast<double>(legend_entries(c)) * legend_line + 6;
}

void draw_chart(cairo_t* cr, const line_chart& c, double width) {
  cairo_save(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, width, chart_height(c, width));
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  draw_text(cr, c.title, margin_left, 4, {11, true, width - margin_left, PANGO_ALIGN_LEFT, false});
  const axes a = make_axes(c, width);
  draw_grid(cr, a, c);
  for (std::size_t i = 0; i < c.series.size(); ++i)
    draw_series(cr, a, c.series[i], palette[i % palette.size()]);
  for (const auto& l : c.lines) {
    set_line_style(cr, l);
    cairo_move_to(cr, a.x0, a.y(l.value));
    cairo_line_to(cr, a.x1, a.y(l.value));
    cairo_stroke(cr);
  }
  for (const auto& m : c.marks) {
    set_mark_style(cr, m);
    cairo_move_to(cr, a.x(m.x), a.y0);
    cairo_line_to(cr, a.x(m.x), a.y1);
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);
  // Legend under the axis: one line per series, then the horizontal lines.
  const text_style legend{8.5, false, width - margin_left - 30, PANGO_ALIGN_LEFT, false};
  double y = a.y1 + axis_height;
  for (std::size_t i = 0; i < c.series.size(); ++i, y += legend_line) {
    set_colour(cr, palette[i % palette.size()]);
    cairo_rectangle(cr, margin_left, y + 3, 18, 6);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    draw_text(cr, c.series[i].name + (c.series[i].has_band ? " (median, band p50-p99)" : ""),
              margin_left + 24, y, legend);
  }
  for (const auto& l : c.lines) {
    set_line_style(cr, l);
    cairo_move_to(cr, margin_left, y + 6);
    cairo_line_to(cr, margin_left + 18, y + 6);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    draw_text(cr, l.label + " (" + format_value(l.value) + ")", margin_left + 24, y, legend);
    y += legend_line;
  }
  for (const auto& m : c.marks) {
    set_mark_style(cr, m);
    cairo_move_to(cr, margin_left + 9, y + 1);
    cairo_line_to(cr, margin_left + 9, y + 11);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    draw_text(cr, m.label, margin_left + 24, y, legend);
    y += legend_line;
  }
  cairo_restore(cr);
}

double heatmap_height(const heatmap& m, double width) {
  const double cell = heatmap_cell(m, width);
  return title_height + heatmap_header(m, cell) + cell * static_cast<double>(m.rows.size()) + 40;
}

void draw_heatmap(cairo_t* cr, const heatmap& m, double width) {
  cairo_save(cr);
  const double cell = heatmap_cell(m, width);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, width, heatmap_height(m, width));
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  draw_text(cr, m.title + " (" + m.unit + ")", 4, 4,
            {11, true, width - 8, PANGO_ALIGN_LEFT, false});
  double lo = INFINITY, hi = -INFINITY;
  auto range = [&](double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const auto& row : m.values)
    for (double v : row)
      range(v);
  for (const auto& c : m.cells)
    range(c.value);
  const double x0 = 80, y0 = title_height + heatmap_header(m, cell);
  const double side = cell * static_cast<double>(m.rows.size());
  if (m.raster) {
    draw_heatmap_raster(cr, m, {x0, y0, cell}, lo, hi);
  } else {
    draw_heatmap_labels(cr, m, x0, y0, cell);
    const double font = std::clamp(cell / 4.5, 5.0, 9.0);
    for (std::size_t i = 0; i < m.rows.size(); ++i) {
      const double y = y0 + static_cast<double>(i) * cell;
      for (std::size_t j = 0; j < m.cols.size(); ++j) {
        const double x = x0 + static_cast<double>(j) * cell;
        const double v =
            i < m.values.size() && j < m.values[i].size() ? m.values[i][j] : std::nan("");
        const double t = heatmap_shade(v, lo, hi, m.higher_is_better);
        set_heatmap_colour(cr, v, t);
        cairo_rectangle(cr, x, y, cell - 1, cell - 1);
        cairo_fill(cr);
        if (cell < 18) continue;  // no room for a readable value
        if (std::isfinite(v) && t > 0.55)
          cairo_set_source_rgb(cr, 1, 1, 1);
        else
          cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        const auto vl =
            make_layout(cr, format_value(v), {font, false, -1, PANGO_ALIGN_LEFT, false});
        draw_layout(cr, vl.get(), x + (cell - 1 - layout_width(vl.get())) / 2,
                    y + (cell - 1 - layout_height(vl.get())) / 2);
      }
    }
  }
  draw_heatmap_groups(cr, m, {x0, y0, cell});
  draw_heatmap_marks(cr, m, {x0, y0, cell});
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  std::string scale = std::isfinite(lo) ? "rows: " + m.row_label + ", columns: " + m.col_label +
                                              "; range " + format_value(lo) + " to " +
                                              format_value(hi) + " " + m.unit + ", darker is better"
                                        : "no values";
  if (!m.marks_label.empty()) scale += "; " + m.marks_label;
  draw_text(cr, scale, x0, y0 + side + 12, {8, false, width - x0 - 4, PANGO_ALIGN_LEFT, false});
  cairo_restore(cr);
}

}  // namespace gpubench::reports::render

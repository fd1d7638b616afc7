// The report as a PDF drawn with cairo + pango: a title page, then the sections with tables
// that break across pages (header repeated) and the same vector charts as the HTML report.
#include <cairo-pdf.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "core/errors.hpp"
#include "reports/render/cairo_text.hpp"
#include "reports/render/chart_drawing.hpp"
#include "reports/render/charts.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

constexpr double page_width = 595.0;  // A4 in points
constexpr double page_height = 842.0;
constexpr double margin = 42.0;
constexpr double content_width = page_width - 2 * margin;
constexpr double cell_pad = 3.0;

class pdf_pages {
 public:
  explicit pdf_pages(const std::filesystem::path& path)
      : m_surface(cairo_pdf_surface_create(path.c_str(), page_width, page_height),
                  &cairo_surface_destroy),
        m_cr(cairo_create(m_surface.get()), &cairo_destroy) {
    if (cairo_surface_status(m_surface.get()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error("writing " + path.string() + ": " +
                               cairo_status_to_string(cairo_surface_status(m_surface.get())));
  }

  void finish(const std::filesystem::path& path) {
    footer();
    m_cr.reset();
    cairo_surface_finish(m_surface.get());
    if (cairo_surface_status(m_surface.get()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error("writing " + path.string() + ": " +
                               cairo_status_to_string(cairo_surface_status(m_surface.get())));
  }

  void title_page(const document& doc) {
    m_y = 200;
    ink(0.1);
    m_y += draw_text(m_cr.get(), doc.title, margin, m_y, {26, true, content_width}) + 18;
    for (const auto& line : doc.subtitle)
      m_y += draw_text(m_cr.get(), line, margin, m_y, {11, false, content_width}) + 4;
    m_y += 30;
    m_y += draw_text(m_cr.get(), "Contents", margin, m_y, {13, true, content_width}) + 6;
    for (const auto& s : doc.sections)
      if (s.level == 1)
        m_y +=
            draw_text(m_cr.get(), s.title, margin + 12, m_y, {10, false, content_width - 12}) + 3;
    new_page();
  }

  void heading(const section& s) {
    if (s.level == 1 && m_y > margin + 1) new_page();
    need(60);
    ink(0.1);
    m_y += draw_text(m_cr.get(), s.title, margin, m_y,
                     {s.level == 1 ? 15.0 : 12.0, true, content_width}) +
           8;
  }

  void text(const std::string& t, bool is_note) {
    const auto l = make_layout(m_cr.get(), t, {9.5, false, content_width - (is_note ? 12 : 0)});
    need(layout_height(l.get()) + 8);
    if (is_note) {
      cairo_set_source_rgb(m_cr.get(), 0.6, 0.3, 0.05);
      cairo_rectangle(m_cr.get(), margin, m_y, 3, layout_height(l.get()));
      cairo_fill(m_cr.get());
    }
    ink(0.15);
    draw_layout(m_cr.get(), l.get(), margin + (is_note ? 12 : 0), m_y);
    m_y += layout_height(l.get()) + 8;
  }

  void chart(const line_chart& c) {
    const double h = chart_height(c, content_width);
    place(h, [&] { draw_chart(m_cr.get(), c, content_width); });
  }

  void chart(const heatmap& m) {
    const double h = heatmap_height(m, content_width);
    place(h, [&] { draw_heatmap(m_cr.get(), m, content_width); });
  }

  void chart(const diagram& d) {
    const double h = diagram_height(d, content_width);
    place(h, [&] { draw_diagram(m_cr.get(), d, content_width); });
  }

  void grid(const table& t) {
    if (t.header.empty()) return;
    if (!t.caption.empty()) {
      need(40);
      ink(0.1);
      m_y += draw_text(m_cr.get(), t.caption, margin, m_y, {9.5, true, content_width}) + 4;
    }
    const auto widths = column_widths(t);
    row(t.header, widths, t.numeric, true);
    for (const auto& r : t.rows) {
      if (row_height(r, widths) + m_y > page_height - margin) {
        new_page();
        row(t.header, widths, t.numeric, true);
      }
      row(r, widths, t.numeric, false);
    }
    m_y += 12;
  }

 private:
  static constexpr double table_font = 7.5;

  void ink(double grey) { cairo_set_source_rgb(m_cr.get(), grey, grey, grey); }

  void footer() {
    ink(0.45);
    draw_text(m_cr.get(), "gpubench report, page " + std::to_string(m_page), margin,
              page_height - margin + 14, {7.5, false, content_width});
  }

  void new_page() {
    footer();
    cairo_show_page(m_cr.get());
    ++m_page;
    m_y = margin;
  }

  void need(double h) {
    if (m_y + h > page_height - margin && m_y > margin + 1) new_page();
  }

  template <class Draw>
  void place(double h, Draw draw) {
    need(h + 8);
    cairo_save(m_cr.get());
    cairo_translate(m_cr.get(), margin, m_y);
    draw();
    cairo_restore(m_cr.get());
    m_y += h + 10;
  }

  // Natural widths, shrunk in proportion when the table is wider than the page; cells wrap.
  std::vector<double> column_widths(const table& t) {
    std::vector<double> w(t.header.size(), 20);
    auto measure = [&](const std::vector<std::string>& r, bool bold) {
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) {
        const auto l = make_layout(m_cr.get(), r[i], {table_font, bold});
        w[i] = std::max(w[i], std::min(layout_width(l.get()), 220.0) + 2 * cell_pad);
      }
    };
    measure(t.header, true);
    for (const auto& r : t.rows)
      measure(r, false);
    // Columns narrower than an equal share keep their width; the wide ones share the rest.
    const double share = content_width / static_cast<double>(w.size());
    double narrow = 0, wide = 0;
    for (double x : w)
      (x <= share ? narrow : wide) += x;
    if (narrow + wide > content_width && wide > 0)
      for (double& x : w)
        if (x > share) x *= (content_width - narrow) / wide;
    return w;
  }

  double row_height(const std::vector<std::string>& r, const std::vector<double>& widths) {
    double h = 0;
    for (std::size_t i = 0; i < r.size() && i < widths.size(); ++i) {
      const auto l = make_layout(m_cr.get(), r[i], {table_font, false, widths[i] - 2 * cell_pad});
      h = std::max(h, layout_height(l.get()));
    }
    return h + 2 * cell_pad;
  }

  void row(const std::vector<std::string>& r, const std::vector<double>& widths,
           const std::vector<bool>& numeric, bool header) {
    const double h = row_height(r, widths);
    if (header) {
      cairo_set_source_rgb(m_cr.get(), 0.90, 0.92, 0.95);
      cairo_rectangle(m_cr.get(), margin, m_y, content_width, h);
      cairo_fill(m_cr.get());
    }
    double x = margin;
    for (std::size_t i = 0; i < r.size() && i < widths.size(); ++i) {
      const bool right = !header && i < numeric.size() && numeric[i];
      const auto l = make_layout(m_cr.get(), r[i],
                                 {table_font, header, widths[i] - 2 * cell_pad,
                                  right ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT});
      ink(0.1);
      draw_layout(m_cr.get(), l.get(), x + cell_pad, m_y + cell_pad);
      x += widths[i];
    }
    cairo_set_source_rgb(m_cr.get(), 0.82, 0.82, 0.82);
    cairo_set_line_width(m_cr.get(), 0.4);
    cairo_move_to(m_cr.get(), margin, m_y + h);
    cairo_line_to(m_cr.get(), margin + content_width, m_y + h);
    cairo_stroke(m_cr.get());
    m_y += h;
  }

  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> m_surface;
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> m_cr;
  double m_y = margin;
  int m_page = 1;
};

}  // namespace

void write_pdf(const document& doc, const std::filesystem::path& path) {
  // cairo writes in place; a temporary name and a rename keep a reader from a half file.
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!dir.empty()) std::filesystem::create_directories(dir);
  const auto tmp = dir / ("." + path.filename().string() + ".tmp");
  try {
    pdf_pages pages(tmp);
    pages.title_page(doc);
    for (const auto& s : doc.sections) {
      pages.heading(s);
      for (const auto& b : s.blocks)
        std::visit(
            [&pages](const auto& v) {
              using T = std::decay_t<decltype(v)>;
              if constexpr (std::is_same_v<T, paragraph>)
                pages.text(v.text, false);
              else if constexpr (std::is_same_v<T, note>)
                pages.text(v.text, true);
              else if constexpr (std::is_same_v<T, table>)
                pages.grid(v);
              else
                pages.chart(v);
            },
            b);
    }
    pages.finish(tmp);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace gpubench::reports::render

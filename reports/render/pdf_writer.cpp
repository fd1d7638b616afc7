// The report as a PDF drawn with cairo + pango: a title page, then the sections flowing from
// page to page (a new page only for the parts that ask for one), tables that break between
// rows with the header repeated, and the same vector charts as the HTML report.
#include <cairo-pdf.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "core/errors.hpp"
#include "reports/render/cairo_text.hpp"
#include "reports/render/chart_drawing.hpp"
#include "reports/render/charts.hpp"
#include "reports/render/pdf_table.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

constexpr double page_width = 595.0;  // A4 in points
constexpr double page_height = 842.0;
constexpr double margin = 42.0;
constexpr double content_width = page_width - 2 * margin;
constexpr double content_height = page_height - 2 * margin;

// One table row laid out once, at its columns' widths: measured, then drawn.
struct laid_row {
  std::vector<layout_ptr> cells;
  double height = 0;
};

class pdf_pages {
 public:
  explicit pdf_pages(const std::filesystem::path& path)
      : m_surface(cairo_pdf_surface_create(path.c_str(), page_width, page_height),
                  &cairo_surface_destroy),
        m_cr(cairo_create(m_surface.get()), &cairo_destroy),
        m_text(m_cr.get()) {
    if (cairo_surface_status(m_surface.get()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error("writing " + path.string() + ": " +
                               cairo_status_to_string(cairo_surface_status(m_surface.get())));
  }

  void finish(const std::filesystem::path& path) {
    // A page with nothing drawn stays out of the file (cairo emits no clear page at finish).
    if (!page_empty() || m_page == 1) footer();
    m_cr.reset();
    cairo_surface_finish(m_surface.get());
    if (cairo_surface_status(m_surface.get()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error("writing " + path.string() + ": " +
                               cairo_status_to_string(cairo_surface_status(m_surface.get())));
  }

  // Title, one line per input file, the contents. Laid out first: when it all fits it stands
  // a third of the way down; a long list (many input files) starts at the top and runs on to
  // the next page instead of off the bottom.
  void title_page(const document& doc) {
    struct line {
      layout_ptr text;
      double x;
      double space_after;
    };
    std::vector<line> lines;
    lines.push_back({m_text.layout(doc.title, {26, true, content_width}), margin, 18});
    for (const auto& l : doc.subtitle)
      lines.push_back({m_text.layout(l, {11, false, content_width}), margin, 4});
    if (!lines.empty()) lines.back().space_after += 30;
    lines.push_back({m_text.layout("Contents", {13, true, content_width}), margin, 6});
    for (const auto& s : doc.sections)
      if (s.level == 1)
        lines.push_back({m_text.layout(s.title, {10, false, content_width - 12}), margin + 12, 3});
    double total = 0;
    for (const auto& l : lines)
      total += layout_height(l.text.get()) + l.space_after;
    m_y = total <= page_height - margin - 200 ? 200 : margin;
    for (const auto& l : lines) {
      const double h = layout_height(l.text.get());
      need(h);
      ink(0.1);
      draw_layout(m_cr.get(), l.text.get(), l.x, m_y);
      m_y += h + l.space_after;
    }
    new_page();
  }

  void section(const std::vector<model::section>& all, std::size_t i) {
    heading(all, i);
    for (const auto& b : all[i].blocks)
      std::visit(
          [this](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, paragraph>)
              text(v.text, false);
            else if constexpr (std::is_same_v<T, note>)
              text(v.text, true);
            else if constexpr (std::is_same_v<T, table>)
              grid(v);
            else
              chart(v);
          },
          b);
  }

 private:
  bool page_empty() const { return m_y <= margin + 1; }
  double room() const { return page_height - margin - m_y; }

  void ink(double grey) { cairo_set_source_rgb(m_cr.get(), grey, grey, grey); }

  double put(const std::string& t, double x, const text_style& style) {
    const auto l = m_text.layout(t, style);
    draw_layout(m_cr.get(), l.get(), x, m_y);
    return layout_height(l.get());
  }

  void footer() {
    ink(0.45);
    const auto l = m_text.layout("gpubench report, page " + std::to_string(m_page),
                                 {7.5, false, content_width});
    draw_layout(m_cr.get(), l.get(), margin, page_height - margin + 14);
  }

  void new_page() {
    footer();
    cairo_show_page(m_cr.get());
    ++m_page;
    m_y = margin;
  }

  void need(double h) {
    if (h > room() && !page_empty()) new_page();
  }

  // --- Headings and what they keep with them ---------------------------------------------

  static double heading_gap(const model::section& s) { return s.level == 1 ? 14 : 6; }

  layout_ptr heading_layout(const model::section& s) {
    return m_text.layout(s.title, {s.level == 1 ? 15.0 : 12.0, true, content_width});
  }

  double heading_height(const model::section& s) {
    return layout_height(heading_layout(s).get()) + 8;
  }

  layout_ptr text_layout(const std::string& t, bool is_note) {
    return m_text.layout(t, {9.5, false, content_width - (is_note ? 12 : 0)});
  }

  // The least of a block that may stand at the bottom of a page: a paragraph whole, a chart
  // whole, a table's caption, header and first row.
  double block_start(const block& b) {
    return std::visit(
        [this](const auto& v) -> double {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, paragraph> || std::is_same_v<T, note>)
            return layout_height(text_layout(v.text, std::is_same_v<T, note>).get()) + 8;
          else if constexpr (std::is_same_v<T, table>)
            return table_start(v);
          else if constexpr (std::is_same_v<T, line_chart>)
            return chart_height(v, content_width) + 10;
          else if constexpr (std::is_same_v<T, heatmap>)
            return heatmap_height(v, content_width) + 10;
          else
            return diagram_height(v, content_width) + 10;
        },
        b);
  }

  // A heading with its leading text and the start of its first chart or table; a section of
  // text only (an appendix's introduction) keeps the next heading's start too.
  double keep_height(const std::vector<model::section>& all, std::size_t i, bool follow) {
    double h = heading_height(all[i]);
    for (const auto& b : all[i].blocks) {
      h += block_start(b);
      if (!std::holds_alternative<paragraph>(b) && !std::holds_alternative<note>(b)) return h;
    }
    if (follow && i + 1 < all.size() && !all[i + 1].new_page)
      h += heading_gap(all[i + 1]) + keep_height(all, i + 1, false);
    return h;
  }

  void heading(const std::vector<model::section>& all, std::size_t i) {
    const auto& s = all[i];
    if (s.new_page && !page_empty()) new_page();
    if (!page_empty()) {
      double keep = keep_height(all, i, true);
      // More than a page would fit nowhere: then the heading keeps its first block only.
      if (keep > content_height)
        keep = heading_height(s) + (s.blocks.empty() ? 0 : block_start(s.blocks.front()));
      if (heading_gap(s) + keep > room()) new_page();
    }
    if (!page_empty()) m_y += heading_gap(s);
    const auto l = heading_layout(s);
    ink(0.1);
    draw_layout(m_cr.get(), l.get(), margin, m_y);
    const double h = layout_height(l.get());
    if (s.level == 1) {  // the rule that tells a part of the report from a view inside it
      cairo_set_source_rgb(m_cr.get(), 0.80, 0.84, 0.89);
      cairo_set_line_width(m_cr.get(), 1.2);
      cairo_move_to(m_cr.get(), margin, m_y + h + 3);
      cairo_line_to(m_cr.get(), margin + content_width, m_y + h + 3);
      cairo_stroke(m_cr.get());
    }
    m_y += h + 8;
  }

  // --- Text and charts --------------------------------------------------------------------

  void text(const std::string& t, bool is_note) {
    const auto l = text_layout(t, is_note);
    const double h = layout_height(l.get());
    need(h + 8);
    if (is_note) {
      cairo_set_source_rgb(m_cr.get(), 0.6, 0.3, 0.05);
      cairo_rectangle(m_cr.get(), margin, m_y, 3, h);
      cairo_fill(m_cr.get());
    }
    ink(0.15);
    draw_layout(m_cr.get(), l.get(), margin + (is_note ? 12 : 0), m_y);
    m_y += h + 8;
  }

  void chart(const line_chart& c) {
    place(chart_height(c, content_width), [&] { draw_chart(m_cr.get(), c, content_width); });
  }

  void chart(const heatmap& m) {
    place(heatmap_height(m, content_width), [&] { draw_heatmap(m_cr.get(), m, content_width); });
  }

  void chart(const diagram& d) {
    place(diagram_height(d, content_width), [&] { draw_diagram(m_cr.get(), d, content_width); });
  }

  // Charts are never cut: a chart that does not fit goes whole to the next page.
  template <class Draw>
  void place(double h, Draw draw) {
    need(h + 8);
    cairo_save(m_cr.get());
    cairo_translate(m_cr.get(), margin, m_y);
    draw();  // lays out its labels with contexts of its own, under the translation
    cairo_restore(m_cr.get());
    m_text.update(m_cr.get());
    m_y += h + 10;
  }

  // --- Tables -----------------------------------------------------------------------------

  double table_start(const table& t) {
    if (t.header.empty()) return 0;
    const auto parts = split_columns(measure_columns(t, m_text), t.header, content_width);
    const auto& p = parts.front();
    double h = caption_height(part_caption(t.caption, 0, parts.size()));
    h += lay_row(t.header, p, t.numeric, true).height;
    if (!t.rows.empty()) h += lay_row(t.rows.front(), p, t.numeric, false).height;
    return h;
  }

  double caption_height(const std::string& caption) {
    if (caption.empty()) return 0;
    return layout_height(m_text.layout(caption, {9.5, true, content_width}).get()) + 4;
  }

  void grid(const table& t) {
    if (t.header.empty()) return;
    const auto parts = split_columns(measure_columns(t, m_text), t.header, content_width);
    for (std::size_t i = 0; i < parts.size(); ++i)
      grid_part(t, parts[i], part_caption(t.caption, i, parts.size()));
  }

  // A table breaks only between rows, and each page it reaches starts with its header.
  void grid_part(const table& t, const table_part& p, const std::string& caption) {
    const auto header = lay_row(t.header, p, t.numeric, true);
    double start = caption_height(caption) + header.height;
    if (!t.rows.empty()) start += lay_row(t.rows.front(), p, t.numeric, false).height;
    need(start);
    if (!caption.empty()) {
      ink(0.1);
      m_y += put(caption, margin, {9.5, true, content_width}) + 4;
    }
    draw_row(header, p, true);
    for (const auto& r : t.rows) {
      const auto row = lay_row(r, p, t.numeric, false);
      if (row.height > room()) {
        new_page();
        draw_row(header, p, true);
      }
      draw_row(row, p, false);
    }
    m_y += 12;
  }

  laid_row lay_row(const std::vector<std::string>& r, const table_part& p,
                   const std::vector<bool>& numeric, bool header) {
    laid_row out;
    for (std::size_t k = 0; k < p.columns.size(); ++k) {
      const auto c = p.columns[k];
      const bool right = !header && c < numeric.size() && numeric[c];
      out.cells.push_back(m_text.layout(
          c < r.size() ? r[c] : std::string(),
          {table_font_size, header, p.widths[k] - 2 * table_cell_pad,
           right ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT, false, header && p.whole_words}));
      out.height = std::max(out.height, layout_height(out.cells.back().get()));
    }
    out.height += 2 * table_cell_pad;
    return out;
  }

  void draw_row(const laid_row& row, const table_part& p, bool header) {
    double width = 0;
    for (double w : p.widths)
      width += w;
    if (header) {
      cairo_set_source_rgb(m_cr.get(), 0.90, 0.92, 0.95);
      cairo_rectangle(m_cr.get(), margin, m_y, width, row.height);
      cairo_fill(m_cr.get());
    }
    ink(0.1);
    double x = margin;
    for (std::size_t k = 0; k < row.cells.size(); ++k) {
      draw_layout(m_cr.get(), row.cells[k].get(), x + table_cell_pad, m_y + table_cell_pad);
      x += p.widths[k];
    }
    cairo_set_source_rgb(m_cr.get(), 0.82, 0.82, 0.82);
    cairo_set_line_width(m_cr.get(), 0.4);
    cairo_move_to(m_cr.get(), margin, m_y + row.height);
    cairo_line_to(m_cr.get(), margin + width, m_y + row.height);
    cairo_stroke(m_cr.get());
    m_y += row.height;
  }

  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> m_surface;
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> m_cr;
  text_engine m_text;  // every layout of the pages themselves; charts bring their own
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
    for (std::size_t i = 0; i < doc.sections.size(); ++i)
      pages.section(doc.sections, i);
    pages.finish(tmp);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace gpubench::reports::render

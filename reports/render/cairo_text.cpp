#include "reports/render/cairo_text.hpp"

#include <algorithm>

namespace gpubench::reports::render {

namespace {

struct attr_list_unref {
  void operator()(PangoAttrList* a) const { pango_attr_list_unref(a); }
};

}  // namespace

text_engine::text_engine(cairo_t* cr) : m_context(pango_cairo_create_context(cr)) {
  // 72 dpi: a font size in points is the same number of surface units, on PDF and SVG alike.
  pango_cairo_context_set_resolution(m_context.get(), 72);
}

void text_engine::update(cairo_t* cr) {
  pango_cairo_update_context(cr, m_context.get());
}

text_engine::font& text_engine::font_for(const text_style& style) {
  for (auto& f : m_fonts)
    if (f.size == style.size && f.bold == style.bold && f.monospace == style.monospace) return f;
  font f;
  f.size = style.size;
  f.bold = style.bold;
  f.monospace = style.monospace;
  f.desc.reset(pango_font_description_new());
  pango_font_description_set_family(
      f.desc.get(), style.monospace ? "DejaVu Sans Mono,monospace" : "DejaVu Sans,sans-serif");
  pango_font_description_set_weight(f.desc.get(),
                                    style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size(f.desc.get(), style.size * PANGO_SCALE);
  m_fonts.push_back(std::move(f));
  return m_fonts.back();
}

layout_ptr text_engine::layout(const std::string& text, const text_style& style) {
  layout_ptr layout(pango_layout_new(m_context.get()));
  pango_layout_set_font_description(layout.get(), font_for(style).desc.get());
  if (style.width > 0) {
    pango_layout_set_width(layout.get(), static_cast<int>(style.width * PANGO_SCALE));
    pango_layout_set_wrap(layout.get(), PANGO_WRAP_WORD_CHAR);
  }
  pango_layout_set_alignment(layout.get(), style.align);
  pango_layout_set_text(layout.get(), text.c_str(), static_cast<int>(text.size()));
#if PANGO_VERSION_CHECK(1, 44, 0)
  if (style.whole_words && style.width > 0) {
    std::unique_ptr<PangoAttrList, attr_list_unref> attrs(pango_attr_list_new());
    for (std::size_t start = 0; start < text.size();) {
      const auto end = std::min(text.find(' ', start), text.size());
      if (end > start) {
        PangoAttribute* keep = pango_attr_allow_breaks_new(FALSE);
        keep->start_index = static_cast<guint>(start);
        keep->end_index = static_cast<guint>(end);
        pango_attr_list_insert(attrs.get(), keep);  // the list owns it
      }
      start = end + 1;
    }
    pango_layout_set_attributes(layout.get(), attrs.get());
  }
#endif
  return layout;
}

const std::vector<double>& text_engine::advances(font& f) {
  if (f.advances.empty()) {
    const text_style one_line{f.size, f.bold, -1, PANGO_ALIGN_LEFT, f.monospace};
    f.advances.resize(ascii_count);
    for (int i = 0; i < ascii_count; ++i)
      f.advances[i] =
          layout_width(layout(std::string(1, static_cast<char>(first_ascii + i)), one_line).get());
  }
  return f.advances;
}

double text_engine::natural_width(const std::string& text, const text_style& style) {
  const auto& adv = advances(font_for(style));
  double widest = 0, line = 0;
  for (const char ch : text) {
    const int c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      widest = std::max(widest, line);
      line = 0;
    } else if (c >= first_ascii && c < first_ascii + ascii_count) {
      line += adv[c - first_ascii];
    } else {  // UTF-8, tabs: shaping decides
      text_style one_line = style;
      one_line.width = -1;
      return layout_width(layout(text, one_line).get());
    }
  }
  return std::max(widest, line);
}

layout_ptr make_layout(cairo_t* cr, const std::string& text, const text_style& style) {
  // The layout holds a reference to the engine's context, so it outlives the engine.
  return text_engine(cr).layout(text, style);
}

double layout_width(PangoLayout* layout) {
  int w = 0, h = 0;
  pango_layout_get_size(layout, &w, &h);
  return static_cast<double>(w) / PANGO_SCALE;
}

double layout_height(PangoLayout* layout) {
  int w = 0, h = 0;
  pango_layout_get_size(layout, &w, &h);
  return static_cast<double>(h) / PANGO_SCALE;
}

void draw_layout(cairo_t* cr, PangoLayout* layout, double x, double y) {
  cairo_move_to(cr, x, y);
  pango_cairo_show_layout(cr, layout);
}

double draw_text(cairo_t* cr, const std::string& text, double x, double y,
                 const text_style& style) {
  const auto layout = make_layout(cr, text, style);
  draw_layout(cr, layout.get(), x, y);
  return layout_height(layout.get());
}

}  // namespace gpubench::reports::render

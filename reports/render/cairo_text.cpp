#include "reports/render/cairo_text.hpp"

namespace gpubench::reports::render {

layout_ptr make_layout(cairo_t* cr, const std::string& text, const text_style& style) {
  layout_ptr layout(pango_cairo_create_layout(cr));
  // 72 dpi: a font size in points is the same number of surface units, on PDF and SVG alike.
  pango_cairo_context_set_resolution(pango_layout_get_context(layout.get()), 72);
  pango_layout_context_changed(layout.get());
  std::unique_ptr<PangoFontDescription, decltype(&pango_font_description_free)> font(
      pango_font_description_new(), &pango_font_description_free);
  pango_font_description_set_family(
      font.get(), style.monospace ? "DejaVu Sans Mono,monospace" : "DejaVu Sans,sans-serif");
  pango_font_description_set_weight(font.get(),
                                    style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size(font.get(), style.size * PANGO_SCALE);
  pango_layout_set_font_description(layout.get(), font.get());
  if (style.width > 0) {
    pango_layout_set_width(layout.get(), static_cast<int>(style.width * PANGO_SCALE));
    pango_layout_set_wrap(layout.get(), PANGO_WRAP_WORD_CHAR);
  }
  pango_layout_set_alignment(layout.get(), style.align);
  pango_layout_set_text(layout.get(), text.c_str(), static_cast<int>(text.size()));
  return layout;
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

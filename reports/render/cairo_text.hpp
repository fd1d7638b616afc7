// Text on a cairo surface with pango: RAII layouts, sizes in the surface's units (points).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cairo.h>
#include <pango/pangocairo.h>

namespace gpubench::reports::render {

struct gobject_unref {
  void operator()(void* p) const { g_object_unref(p); }
};
using layout_ptr = std::unique_ptr<PangoLayout, gobject_unref>;

struct text_style {
  double size = 9;  // points
  bool bold = false;
  double width = -1;  // wrap at this width; -1: one line
  PangoAlignment align = PANGO_ALIGN_LEFT;
  bool monospace = false;
  // Wrap only at spaces, never inside a word ("(GB/s)" stays whole); with pango < 1.44 a
  // request that changes nothing.
  bool whole_words = false;
};

// One pango context for a cairo target and every layout drawn on it. A context per layout
// (pango_cairo_create_layout) was most of the time of a large PDF: each one loads font
// options, a fontset and shaping caches anew.
class text_engine {
 public:
  explicit text_engine(cairo_t* cr);

  // Brings the context to the cairo_t's current transformation and target; layouts made
  // before the call keep the old one. Needed only where text is laid out under a transform
  // other than the one the engine was made or last updated with.
  void update(cairo_t* cr);

  layout_ptr layout(const std::string& text, const text_style& style);

  // The width of `text` on one line (the longest line when it has several), from advances
  // of printable ASCII measured once per font: no shaping per call. Kerning only narrows
  // DejaVu's pairs, so this is pango's width or a little more. Other text is laid out.
  double natural_width(const std::string& text, const text_style& style);

 private:
  struct font_desc_free {
    void operator()(PangoFontDescription* f) const { pango_font_description_free(f); }
  };
  static constexpr int first_ascii = 32;  // space
  static constexpr int ascii_count = 95;  // to '~'
  struct font {
    double size = 0;
    bool bold = false;
    bool monospace = false;
    std::unique_ptr<PangoFontDescription, font_desc_free> desc;
    std::vector<double> advances;  // empty until natural_width needs them
  };

  font& font_for(const text_style& style);
  const std::vector<double>& advances(font& f);

  std::unique_ptr<PangoContext, gobject_unref> m_context;
  std::vector<font> m_fonts;  // a handful of styles per document: a linear search is enough
};

// One-shot, for drawing code that lays out a few labels on a cairo_t of its own (charts):
// a fresh context each call, so any transformation in force is taken into account.
layout_ptr make_layout(cairo_t* cr, const std::string& text, const text_style& style);
// Logical size of a layout in surface units.
double layout_width(PangoLayout* layout);
double layout_height(PangoLayout* layout);
// Draws with the top-left corner at (x, y) in the current source colour.
void draw_layout(cairo_t* cr, PangoLayout* layout, double x, double y);
// One-shot: draws and returns the height used.
double draw_text(cairo_t* cr, const std::string& text, double x, double y, const text_style& style);

}  // namespace gpubench::reports::render

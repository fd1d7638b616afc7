// Text on a cairo surface with pango: RAII layouts, sizes in the surface's units (points).
#pragma once

#include <memory>
#include <string>

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
};

layout_ptr make_layout(cairo_t* cr, const std::string& text, const text_style& style);
// Logical size of a layout in surface units.
double layout_width(PangoLayout* layout);
double layout_height(PangoLayout* layout);
// Draws with the top-left corner at (x, y) in the current source colour.
void draw_layout(cairo_t* cr, PangoLayout* layout, double x, double y);
// One-shot: draws and returns the height used.
double draw_text(cairo_t* cr, const std::string& text, double x, double y, const text_style& style);

}  // namespace gpubench::reports::render

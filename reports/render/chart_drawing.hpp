// The one chart-drawing code path: line charts against message size and heatmaps, drawn on
// any cairo surface (SVG for the HTML report, pages of the PDF).
#pragma once

#include <cairo.h>

#include "reports/model/document.hpp"

namespace gpubench::reports::render {

// Height a chart needs at a given width (the legend grows with the number of lines).
double chart_height(const model::line_chart& chart, double width);
double heatmap_height(const model::heatmap& map, double width);

// Draws with the top-left corner at the current origin.
void draw_chart(cairo_t* cr, const model::line_chart& chart, double width);
void draw_heatmap(cairo_t* cr, const model::heatmap& map, double width);

// The machine diagram (reports/render/diagram_drawing.cpp).
double diagram_height(const model::diagram& d, double width);
void draw_diagram(cairo_t* cr, const model::diagram& d, double width);

}  // namespace gpubench::reports::render

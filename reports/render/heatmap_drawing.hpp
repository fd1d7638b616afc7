// Heatmap pieces beside chart_drawing.cpp: the colour scale, suspects' marks, and the raster
// form of a large matrix (one pixel per cell in one image instead of N^2 vector rectangles).
#pragma once

#include <cairo.h>

#include <cstddef>

#include "reports/model/document.hpp"

namespace gpubench::reports::render {

// Where the cells are: top-left corner and the side of one cell, in surface units.
struct heatmap_grid {
  double x0 = 0;
  double y0 = 0;
  double cell = 0;
};

// 0 (worst) to 1 (best) within [lo, hi], whichever way the metric points.
double heatmap_shade(double v, double lo, double hi, bool higher_is_better);
// The cell colour: darker is better; grey for an empty cell (NaN).
void set_heatmap_colour(cairo_t* cr, double v, double shade);

// The raster image's side at most: beyond it one pixel stands for a block of cells (its worst).
inline constexpr std::size_t max_raster_side = 640;

// Every cell as one image, scaled into the grid; row and column ticks by index (by name when
// the rows are grouped).
void draw_heatmap_raster(cairo_t* cr, const model::heatmap& m, const heatmap_grid& g, double lo,
                         double hi);
// Groups narrower than this on average (in surface units) get no boundary lines.
inline constexpr double min_group_span = 8;

// Lines where each group of rows and columns starts; a marked group outlined in red.
void draw_heatmap_groups(cairo_t* cr, const model::heatmap& m, const heatmap_grid& g);
// Red outlines around marked rows and columns (slow nodes) and rings around marked cells
// (slow links); in raster form, ticks outside the matrix so a one-pixel row still shows.
void draw_heatmap_marks(cairo_t* cr, const model::heatmap& m, const heatmap_grid& g);

}  // namespace gpubench::reports::render

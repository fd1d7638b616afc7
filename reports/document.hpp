// The report as a format-neutral document: sections of paragraphs, tables and charts that the
// HTML, PDF and Markdown writers render, so every format shows the same content.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gpubench::reports {

struct paragraph {
  std::string text;
};

// A remark set apart from the measurements: reference figures, skip reasons, caveats.
struct note {
  std::string text;
};

struct table {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;  // per column: right-aligned
};

struct chart_point {
  double x = 0;
  double y = 0;
  double band_low = 0;  // meaningful only when the series has a band
  double band_high = 0;
};

struct chart_series {
  std::string name;
  std::vector<chart_point> points;
  bool has_band = false;  // p50-p99 for latency
};

// A horizontal line: the line rate of the path, or a published reference figure.
struct reference_line {
  double value = 0;
  std::string label;
  bool is_reference = false;  // published figure (dotted), else a line rate (dashed)
  int series = -1;            // a line rate of one series only is drawn in its colour
};

struct line_chart {
  std::string title;
  std::string x_label = "message size";
  std::string y_label;
  bool log_y = false;
  std::vector<chart_series> series;
  std::vector<reference_line> lines;
};

// A matrix of values, GPU pairs against each other; empty cells are NaN.
struct heatmap {
  std::string title;
  std::string row_label;
  std::string col_label;
  std::string unit;
  bool higher_is_better = true;
  std::vector<std::string> rows;
  std::vector<std::string> cols;
  std::vector<std::vector<double>> values;
  // Suspects: a row and column to mark in full (a slow node), single cells (a slow link; give
  // both (a, b) and (b, a) for a symmetric matrix).
  std::vector<std::size_t> marked_lines;
  std::vector<std::pair<std::size_t, std::size_t>> marked_cells;
  std::string marks_label;  // what the marks mean, under the matrix
  // Cells as one raster image without values or names (a large matrix: N^2 vector rectangles
  // would weigh down the page); rows and columns are then labelled by index.
  bool raster = false;
};

using block = std::variant<paragraph, note, table, line_chart, heatmap>;

struct section {
  std::string title;
  int level = 1;  // 1: part of the report, 2: one view inside it
  std::vector<block> blocks;
};

struct document {
  std::string title;
  std::vector<std::string> subtitle;  // one line per input file
  std::vector<section> sections;
};

}  // namespace gpubench::reports

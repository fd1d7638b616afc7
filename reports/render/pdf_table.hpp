// How a table fits the width of a PDF page: column widths from the text's natural widths,
// and a table too wide to read split by columns into parts that repeat the row label.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/render/cairo_text.hpp"

namespace gpubench::reports::render {

constexpr double table_font_size = 7.5;  // points
constexpr double table_cell_pad = 3.0;   // inside each cell, every side

// What one column asks for, padding included.
struct column_need {
  double natural = 0;   // header and every cell on one line (long text capped)
  double cells = 0;     // every cell on one line, the header wrapped at spaces
  double readable = 0;  // narrower wraps too much: the header's longest word, short cells whole
};

// Columns drawn together: indices into the table's columns and their widths.
struct table_part {
  std::vector<std::size_t> columns;
  std::vector<double> widths;
  bool whole_words = true;  // every header word fits its column: wrap headers at spaces only
};

std::vector<column_need> measure_columns(const model::table& t, text_engine& text);

// One part when the readable widths fit `width`; else parts that each repeat the first
// column (the row label) and a second "size" column, with the other columns shared out so
// the widest part is as narrow as it can be. Widths grow from readable towards natural as
// room allows, cells before headers (a wrapped cell costs every row, a wrapped header one).
std::vector<table_part> split_columns(const std::vector<column_need>& need,
                                      const std::vector<std::string>& header, double width);

// "caption (part 2 of 3)"; the caption alone for a table in one part.
std::string part_caption(const std::string& caption, std::size_t part, std::size_t parts);

}  // namespace gpubench::reports::render

// The one text-table printer of the program: columns padded to a width, one line per row, for
// the run's console summary, `gpubench topo` and the text of `gpubench compare`.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace gpubench::core {

enum class align { left, right };

struct text_column {
  std::string header;
  align alignment = align::left;
  // The least width; a fitted table widens it to its widest cell, a fixed one lets a wider
  // cell push the rest of its line to the right.
  std::size_t width = 0;
  // Spaces before this column (none before the first).
  std::size_t gap = 2;
};

struct text_table_style {
  std::string header_prefix;  // before the header line, e.g. "#  " to make it a comment
  std::string row_prefix;     // before every other line
  bool fit = true;            // widen each column to its widest cell (header included)
  bool pad_last = false;      // the last column padded too (it usually runs free)
  bool trim = false;          // no trailing spaces on any line
  std::string fill;           // the cell of a row shorter than the header
};

class text_table {
 public:
  explicit text_table(std::vector<text_column> columns, text_table_style style = {});

  // Cells past the last column are dropped; missing ones are the style's fill.
  void add_row(std::vector<std::string> cells);
  // The last row's cell `column` is written between `before` and `after`, which take no width:
  // a terminal colour and its reset.
  void wrap_cell(std::size_t column, std::string before, std::string after);

  // The header line and every row, each ending in a newline.
  std::string render() const;
  void print(std::FILE* out) const;

 private:
  struct row {
    std::vector<std::string> cells;
    std::size_t wrapped = 0;
    std::string before, after;
  };
  std::string line(const row& r, const std::vector<std::size_t>& widths,
                   const std::string& prefix) const;

  std::vector<text_column> m_columns;
  text_table_style m_style;
  std::vector<row> m_rows;
};

}  // namespace gpubench::core

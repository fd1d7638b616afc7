#include "core/text_table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpubench::core {

text_table::text_table(std::vector<text_column> columns, text_table_style style)
    : m_columns(std::move(columns)), m_style(std::move(style)) {}

void text_table::add_row(std::vector<std::string> cells) {
  cells.resize(m_columns.size(), m_style.fill);
  m_rows.push_back({std::move(cells), 0, {}, {}});
}

void text_table::wrap_cell(std::size_t column, std::string before, std::string after) {
  if (m_rows.empty()) return;
  m_rows.back().wrapped = column;
  m_rows.back().before = std::move(before);
  m_rows.back().after = std::move(after);
}

// Widths count bytes, as the printers this one replaced did; fmt pads by display width, so a
// cell with a multi-byte character gets fewer spaces than its byte count suggests.
std::string text_table::line(const row& r, const std::vector<std::size_t>& widths,
                             const std::string& prefix) const {
  std::string out = prefix;
  const std::size_t n = m_columns.size();
  for (std::size_t c = 0; c < n; ++c) {
    if (c > 0) out.append(m_columns[c].gap, ' ');
    const std::string& text = r.cells[c];
    std::string cell;
    if (c + 1 == n && !m_style.pad_last)
      cell = text;
    else if (m_columns[c].alignment == align::right)
      cell = fmt::format("{:>{}}", text, widths[c]);
    else
      cell = fmt::format("{:<{}}", text, widths[c]);
    out += r.wrapped == c ? r.before + cell + r.after : cell;
  }
  if (m_style.trim)
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
  out += '\n';
  return out;
}

std::string text_table::render() const {
  row header;
  for (const auto& c : m_columns)
    header.cells.push_back(c.header);
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < m_columns.size(); ++c) {
    std::size_t w = m_columns[c].width;
    if (m_style.fit) {
      w = std::max(w, header.cells[c].size());
      for (const auto& r : m_rows)
        w = std::max(w, r.cells[c].size());
    }
    widths.push_back(w);
  }
  std::string out = line(header, widths, m_style.header_prefix);
  for (const auto& r : m_rows)
    out += line(r, widths, m_style.row_prefix);
  return out;
}

void text_table::print(std::FILE* out) const {
  const std::string text = render();
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace gpubench::core

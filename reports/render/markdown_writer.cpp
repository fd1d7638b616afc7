#include "reports/render/markdown_writer.hpp"

#include <string>
#include <type_traits>

#include "reports/render/charts.hpp"
#include "reports/render/diagram_text.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

// Table cells may not contain a pipe or a line break.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void write_table(std::string& out, const table& t) {
  if (!t.caption.empty()) out += "**" + cell(t.caption) + "**\n\n";
  out += "|";
  for (const auto& h : t.header)
    out += " " + cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i)
    out += i < t.numeric.size() && t.numeric[i] ? "---:|" : "---|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const auto& c : row)
      out += " " + cell(c) + " |";
    out += "\n";
  }
  out += "\n";
}

// Image alt text may not contain brackets or line breaks.
std::string alt_text(const std::string& title) {
  std::string out;
  for (char c : title)
    out += c == '[' || c == ']' || c == '\n' ? ' ' : c;
  return out;
}

std::string svg_document(const std::string& fragment) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + fragment + "\n";
}

}  // namespace

std::string to_markdown(const document& doc, const chart_store& store) {
  const bool draw = store && !charts_unavailable();
  int drawn = 0;
  std::string out = "# " + doc.title + "\n\n";
  for (const auto& line : doc.subtitle)
    out += line + "  \n";
  out += "\n";
  for (const auto& s : doc.sections) {
    out += std::string(static_cast<std::size_t>(s.level) + 1, '#') + " " + s.title + "\n\n";
    for (const auto& b : s.blocks) {
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, paragraph>) {
              out += v.text + "\n\n";
            } else if constexpr (std::is_same_v<T, note>) {
              out += "> " + v.text + "\n\n";
            } else if constexpr (std::is_same_v<T, table>) {
              write_table(out, v);
            } else if constexpr (std::is_same_v<T, diagram>) {
              if (draw) {
                const std::string prefix = "md" + std::to_string(++drawn) + "-";
                out += "![" + alt_text(v.title) + "](" +
                       store(svg_document(diagram_svg(v, prefix))) + ")\n\n";
              } else {
                out += "**" + v.title + "**\n\n";
              }
              for (const auto& line : diagram_lines(v))
                out += "- " + line + "\n";
              out += "\n";
            } else if (draw) {
              const std::string prefix = "md" + std::to_string(++drawn) + "-";
              std::string svg;
              if constexpr (std::is_same_v<T, line_chart>)
                svg = chart_svg(v, prefix);
              else
                svg = heatmap_svg(v, prefix);
              out += "![" + alt_text(v.title) + "](" + store(svg_document(svg)) + ")\n\n";
            } else if constexpr (std::is_same_v<T, line_chart>) {
              out += "_Chart: " + v.title + " (in the HTML and PDF reports)._\n\n";
            } else {
              // The pair views put the same matrix in a table next to the heatmap.
              out += "_Heatmap: " + v.title + " (in the HTML and PDF reports)._\n\n";
            }
          },
          b);
    }
  }
  return out;
}

}  // namespace gpubench::reports::render

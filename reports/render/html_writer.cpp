#include "reports/render/html_writer.hpp"
#include "core/markup_escape.hpp"

#include <type_traits>

#include "reports/render/charts.hpp"
#include "reports/render/diagram_text.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

constexpr const char* stylesheet = R"css(
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: #1a1a1a;
       max-width: 1100px; margin: 2em auto; padding: 0 1.5em; line-height: 1.4; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #dde3ea; padding-bottom: 0.2em; margin-top: 2em; }
h3 { font-size: 1.1em; }
.subtitle { color: #555; margin: 0.1em 0; overflow-wrap: anywhere; }
nav ol { columns: 2; font-size: 0.95em; }
.wide { max-width: 100%; overflow-x: auto; }
/* No table is wider than the page: cells wrap anywhere when they must (long paths, ids). */
table { border-collapse: collapse; margin: 0.4em 0 1.4em; font-size: 0.85em; max-width: 100%; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; overflow-wrap: anywhere; }
th, td { border-bottom: 1px solid #d6d6d6; padding: 0.25em 0.6em; vertical-align: top;
         overflow-wrap: anywhere; word-break: break-word; }
th { background: #e6ebf2; text-align: left; overflow-wrap: normal; word-break: normal; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
p { overflow-wrap: anywhere; }
.note { border-left: 4px solid #995010; background: #fbf5ee; padding: 0.4em 0.8em; }
figure { margin: 0.8em 0; max-width: 100%; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; color: #444; }
@media print {
  body { max-width: none; margin: 0; }
  .wide { overflow: visible; }
  section.new-page { break-before: page; }
  h2, h3 { break-after: avoid; }
  figure, tr { break-inside: avoid; }
  nav { display: none; }
}
)css";

std::string anchor(std::size_t i) {
  return "s" + std::to_string(i + 1);
}

void write_table(std::string& out, const table& t) {
  out += "<div class=\"wide\"><table>\n";
  if (!t.caption.empty()) out += "<caption>" + html_escape(t.caption) + "</caption>\n";
  out += "<thead><tr>";
  for (const auto& h : t.header)
    out += "<th>" + html_escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool num = i < t.numeric.size() && t.numeric[i];
      out += (num ? "<td class=\"num\">" : "<td>") + html_escape(row[i]) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
}

}  // namespace

std::string html_escape(const std::string& text) {
  return core::markup_escape(text);
}

std::string to_html(const document& doc) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + html_escape(doc.title) + "</title>\n<style>" + stylesheet + "</style>\n";
  out += "</head>\n<body>\n<header>\n<h1>" + html_escape(doc.title) + "</h1>\n";
  for (const auto& line : doc.subtitle)
    out += "<p class=\"subtitle\">" + html_escape(line) + "</p>\n";
  out += "</header>\n<nav><ol>\n";
  for (std::size_t i = 0; i < doc.sections.size(); ++i)
    if (doc.sections[i].level == 1)
      out += "<li><a href=\"#" + anchor(i) + "\">" + html_escape(doc.sections[i].title) +
             "</a></li>\n";
  out += "</ol></nav>\n";
  const auto no_charts = charts_unavailable();
  std::size_t figure = 0;
  for (std::size_t i = 0; i < doc.sections.size(); ++i) {
    const auto& s = doc.sections[i];
    const std::string h = s.level == 1 ? "h2" : "h3";
    // Printed, the report flows like the PDF: a new page only where the document asks.
    out += "<section id=\"" + anchor(i) + "\"" + (s.new_page ? " class=\"new-page\"" : "") +
           ">\n<" + h + ">" + html_escape(s.title) + "</" + h + ">\n";
    for (const auto& b : s.blocks) {
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, paragraph>) {
              out += "<p>" + html_escape(v.text) + "</p>\n";
            } else if constexpr (std::is_same_v<T, note>) {
              out += "<p class=\"note\">" + html_escape(v.text) + "</p>\n";
            } else if constexpr (std::is_same_v<T, table>) {
              write_table(out, v);
            } else {
              const std::string prefix = "f" + std::to_string(++figure) + "-";
              out += "<figure>\n";
              if (no_charts) {
                out += "<p class=\"note\">Chart \"" + html_escape(v.title) +
                       "\" not drawn: " + html_escape(*no_charts) + ".</p>\n";
              } else if constexpr (std::is_same_v<T, line_chart>) {
                out += chart_svg(v, prefix);
              } else if constexpr (std::is_same_v<T, diagram>) {
                out += diagram_svg(v, prefix);
              } else {
                out += heatmap_svg(v, prefix);
              }
              if constexpr (std::is_same_v<T, diagram>) {
                // The edges as text too: what a screen reader, a text browser or a search finds.
                out += "<figcaption><details><summary>The diagram as text</summary><ul>";
                for (const auto& line : diagram_lines(v))
                  out += "<li>" + html_escape(line) + "</li>";
                out += "</ul></details></figcaption>\n";
              }
              out += "</figure>\n";
            }
          },
          b);
    }
    out += "</section>\n";
  }
  out +=
      "<footer><p class=\"subtitle\">Written by gpubench report from result files; it "
      "measures nothing itself.</p></footer>\n</body>\n</html>\n";
  return out;
}

}  // namespace gpubench::reports::render

// Charts and PDF pages drawn with cairo + pango: one drawing path serves the SVG embedded in
// the HTML report and the PDF. Builds without cairo say why instead.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "reports/model/document.hpp"

namespace gpubench::reports::render {

// Empty when this build draws charts; else the reason it cannot.
std::optional<std::string> charts_unavailable();

// A chart as an SVG fragment (no XML prolog) whose ids start with `id_prefix`, so several
// charts can sit in one HTML page.
std::string chart_svg(const model::line_chart& chart, const std::string& id_prefix);
std::string heatmap_svg(const model::heatmap& map, const std::string& id_prefix);
std::string diagram_svg(const model::diagram& d, const std::string& id_prefix);

// Title page, sections, tables that break across pages, vector charts. Throws
// std::runtime_error when the file cannot be written, core::usage_error without cairo.
void write_pdf(const model::document& doc, const std::filesystem::path& path);

}  // namespace gpubench::reports::render

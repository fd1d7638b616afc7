// The report as Markdown, for a pull-request comment or a wiki page: tables and text, and
// charts as SVG images beside the file (or, where there is no file, named with a pointer to
// the HTML/PDF report).
#pragma once

#include <functional>
#include <string>

#include "reports/model/document.hpp"

namespace gpubench::reports::render {

// Stores one chart (a standalone SVG document) where the Markdown can link to it and returns
// the link.
using chart_store = std::function<std::string(const std::string& svg_document)>;

// Without `store`, or in a build without cairo, charts are named instead of drawn.
std::string to_markdown(const model::document& doc, const chart_store& store = {});

}  // namespace gpubench::reports::render

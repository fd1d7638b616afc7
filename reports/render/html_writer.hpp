// The report as one self-contained HTML file: inline CSS and inline SVG charts, no scripts,
// nothing fetched from the network; readable on screen and printable.
#pragma once

#include <string>

#include "reports/model/document.hpp"

namespace gpubench::reports::render {

std::string to_html(const model::document& doc);

// Escapes &, <, >, " for HTML text and attributes.
std::string html_escape(const std::string& text);

}  // namespace gpubench::reports::render

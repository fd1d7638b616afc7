// Giving the ids of an SVG document a prefix, so several inline SVGs share one HTML page.
#pragma once

#include <string>

namespace gpubench::reports::render {

// Every `from` in `text` replaced by `to`, in one pass: linear in the size of the text (a
// replace in place moves the tail each time, quadratic for a chart of thousands of series).
std::string replace_all(const std::string& text, const std::string& from, const std::string& to);

// cairo names glyphs and clips "glyph0-1", "clip1" in every document; inline SVGs share one id
// space in HTML, so each chart's ids and references to them get `prefix`. Whatever precedes
// "<svg" (the XML declaration) is dropped.
std::string prefix_svg_ids(const std::string& svg, const std::string& prefix);

}  // namespace gpubench::reports::render

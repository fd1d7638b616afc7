// The machine diagram block as text: for Markdown, for builds without cairo, and for the reader
// of a screen reader (the HTML report lists it under the drawing).
#pragma once

#include <string>
#include <vector>

#include "reports/model/document.hpp"

namespace gpubench::reports::render {

// One line per box but host memory ("GPU 0 (H100, PCIe gen5 x16)"), then one per edge
// ("NUMA 0 - GPU 0: H2D 54.8 GB/s, 87 % of line; PCIe gen5 x16 [good]").
std::vector<std::string> diagram_lines(const model::diagram& d);

std::string to_string(model::line_band band);  // "good" | "fair" | "poor" | "unknown"

}  // namespace gpubench::reports::render

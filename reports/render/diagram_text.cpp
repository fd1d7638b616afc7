#include "reports/render/diagram_text.hpp"

namespace gpubench::reports::render {

using namespace model;

std::string to_string(line_band band) {
  switch (band) {
    case line_band::good:
      return "good";
    case line_band::fair:
      return "fair";
    case line_band::poor:
      return "poor";
    case line_band::unknown:
      break;
  }
  return "unknown";
}

std::vector<std::string> diagram_lines(const diagram& d) {
  auto name = [&](const std::string& id) {
    for (const auto& n : d.nodes)
      if (n.id == id) return n.label;
    return id;
  };
  std::vector<std::string> out;
  for (const auto& n : d.nodes)
    if (n.kind != "memory")
      out.push_back(n.label + (n.detail.empty() ? "" : " (" + n.detail + ")"));
  for (const auto& e : d.edges) {
    std::string text;
    for (const auto& l : e.lines)
      text += (text.empty() ? "" : "; ") + l;
    out.push_back(name(e.from) + " - " + name(e.to) + ": " +
                  (text.empty() ? "not measured" : text) +
                  (e.band == line_band::unknown ? "" : " [" + to_string(e.band) + "]"));
  }
  return out;
}

}  // namespace gpubench::reports::render

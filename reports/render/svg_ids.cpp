#include "reports/render/svg_ids.hpp"

namespace gpubench::reports::render {

std::string replace_all(const std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  std::string out;
  out.reserve(text.size());
  std::size_t done = 0;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, done)) {
    out.append(text, done, at - done);
    out += to;
    done = at + from.size();
  }
  out.append(text, done, std::string::npos);
  return out;
}

std::string prefix_svg_ids(const std::string& svg, const std::string& prefix) {
  const auto start = svg.find("<svg");
  std::string out = start == std::string::npos ? svg : svg.substr(start);
  out = replace_all(out, "id=\"", "id=\"" + prefix);
  out = replace_all(out, "href=\"#", "href=\"#" + prefix);
  return replace_all(out, "url(#", "url(#" + prefix);
}

}  // namespace gpubench::reports::render

// Escaping text for XML and HTML: the five entities, and the control characters XML 1.0
// forbids dropped, so any note or parameter value keeps the document well-formed.
#pragma once

#include <string>

namespace gpubench::core {

inline std::string markup_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\n' || ch == '\t') out += ch;
    }
  }
  return out;
}

}  // namespace gpubench::core

#include "core/escape.hpp"

#include <fmt/format.h>

namespace gpubench::core {

namespace {

// Length of the well-formed UTF-8 sequence at `i` (2 to 4 bytes, no overlongs, no
// surrogates, nothing above U+10FFFF), or 0 when there is none.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

std::string escape_untrusted(std::string_view text, std::size_t max_chars) {
  const std::string_view kept = text.substr(0, std::min(text.size(), max_chars));
  std::string out;
  out.reserve(kept.size() + 16);
  for (std::size_t i = 0; i < kept.size();) {
    const auto c = static_cast<unsigned char>(kept[i]);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(kept, i) : 0; n > 0) {
      // U+0080..U+009F (C1 controls) are as dangerous to a terminal as C0 ones.
      if (n == 2 && c == 0xC2 && static_cast<unsigned char>(kept[i + 1]) < 0xA0) {
        out += fmt::format("\\x{:02x}\\x{:02x}", c, static_cast<unsigned char>(kept[i + 1]));
      } else {
        out.append(kept.substr(i, n));
      }
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  if (text.size() > kept.size()) out += fmt::format("...({} bytes)", text.size());
  return out;
}

}  // namespace gpubench::core

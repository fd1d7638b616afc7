#include "core/text_format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gpubench::core {

std::string format_value(double v) {
  if (!std::isfinite(v)) return "-";
  const double a = std::fabs(v);
  if (a >= 1000) return fmt::format("{:.0f}", v);
  if (a >= 100) return fmt::format("{:.1f}", v);
  if (a >= 1 || a == 0) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* suffixes[] = {"B", "K", "M", "G", "T"};
  std::size_t unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + suffixes[unit];
}

std::string format_ratio(double r) {
  return std::isfinite(r) ? fmt::format("{:.2f}x", r) : std::string("-");
}

}  // namespace gpubench::core

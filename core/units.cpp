#include "core/units.hpp"

#include <cctype>
#include <charconv>
#include <string>

#include "core/errors.hpp"

namespace gpubench::core {

std::uint64_t parse_bytes(std::string_view text) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += static_cast<char>(std::toupper(c));
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc{} || end == t.data())
    throw usage_error("'" + std::string(text) + "' is not a byte size (examples: 64, 4K, 1GiB)");
  std::string suffix(end, static_cast<const char*>(t.data() + t.size()));
  std::uint64_t mult = 1;
  if (suffix.empty() || suffix == "B")
    mult = 1;
  else if (suffix == "K" || suffix == "KB" || suffix == "KIB")
    mult = 1ULL << 10;
  else if (suffix == "M" || suffix == "MB" || suffix == "MIB")
    mult = 1ULL << 20;
  else if (suffix == "G" || suffix == "GB" || suffix == "GIB")
    mult = 1ULL << 30;
  else if (suffix == "T" || suffix == "TB" || suffix == "TIB")
    mult = 1ULL << 40;
  else
    throw usage_error("'" + std::string(text) + "': unknown size suffix '" + suffix + "'");
  if (value > UINT64_MAX / mult) throw usage_error("'" + std::string(text) + "' is too large");
  return value * mult;
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + names[unit];
}

size_range parse_size_range(std::string_view text) {
  const auto colon = text.find(':');
  size_range r;
  if (colon == std::string_view::npos) {
    r.min = r.max = parse_bytes(text);
  } else {
    r.min = parse_bytes(text.substr(0, colon));
    r.max = parse_bytes(text.substr(colon + 1));
  }
  if (r.min == 0) throw usage_error("sizes must be at least 1 byte: '" + std::string(text) + "'");
  if (r.min > r.max)
    throw usage_error("size range '" + std::string(text) + "': the minimum is above the maximum");
  return r;
}

std::vector<std::uint64_t> power_of_two_sweep(std::uint64_t min, std::uint64_t max) {
  std::vector<std::uint64_t> sizes;
  if (min == 0 || min > max) return sizes;
  for (std::uint64_t s = min; s <= max; s *= 2) {
    sizes.push_back(s);
    if (s > max / 2) break;
  }
  if (sizes.back() != max) sizes.push_back(max);
  return sizes;
}

double pcie_lane_gbps(int generation) {
  switch (generation) {
    case 1:
      return 2.5 * 8.0 / 10.0 / 8.0;
    case 2:
      return 5.0 * 8.0 / 10.0 / 8.0;
    case 3:
      return 8.0 * 128.0 / 130.0 / 8.0;
    case 4:
      return 16.0 * 128.0 / 130.0 / 8.0;
    case 5:
      return 32.0 * 128.0 / 130.0 / 8.0;
    case 6:
      return 64.0 * 242.0 / 256.0 / 8.0;
    default:
      return 0;
  }
}

}  // namespace gpubench::core

#include "core/units.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
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
    std::string_view rest = text.substr(colon + 1);
    const auto second = rest.find(':');
    if (second != std::string_view::npos) {
      const std::string f(rest.substr(second + 1));
      rest = rest.substr(0, second);
      char* end = nullptr;
      errno = 0;
      const unsigned long long v = std::strtoull(f.c_str(), &end, 10);
      if (f.empty() || *end != '\0' || errno != 0 || f[0] == '-' || v < 2)
        throw usage_error("size range '" + std::string(text) + "': the factor '" + f +
                          "' is not a whole number of 2 or more");
      r.factor = v;
    }
    r.max = parse_bytes(rest);
  }
  if (r.min == 0) throw usage_error("sizes must be at least 1 byte: '" + std::string(text) + "'");
  if (r.min > r.max)
    throw usage_error("size range '" + std::string(text) + "': the minimum is above the maximum");
  return r;
}

std::string size_range::text() const {
  return std::to_string(min) + ":" + std::to_string(max) +
         (factor == 2 ? std::string() : ":" + std::to_string(factor));
}

std::vector<std::uint64_t> geometric_sweep(std::uint64_t min, std::uint64_t max,
                                           std::uint64_t factor) {
  std::vector<std::uint64_t> sizes;
  if (min == 0 || min > max || factor < 2) return sizes;
  for (std::uint64_t s = min; s <= max; s *= factor) {
    sizes.push_back(s);
    if (s > max / factor) break;
  }
  if (sizes.back() != max) sizes.push_back(max);
  return sizes;
}

std::vector<std::uint64_t> power_of_two_sweep(std::uint64_t min, std::uint64_t max) {
  return geometric_sweep(min, max, 2);
}

std::vector<std::uint64_t> sweep(const size_range& r) {
  return geometric_sweep(r.min, r.max, r.factor);
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

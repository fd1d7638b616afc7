#include "benchmarks/gpu/link_peak.hpp"

#include <charconv>
#include <string>

#include <fmt/format.h>

#include "core/units.hpp"

namespace gpubench::benchmarks::gpu {

std::optional<int> pcie_generation(std::string_view speed) {
  const auto first = speed.find_first_not_of(' ');
  if (first == std::string_view::npos) return std::nullopt;
  speed.remove_prefix(first);
  // from_chars for double is not in every libstdc++ this builds with: parse "16.0" by hand.
  int whole = 0;
  auto [ptr, ec] = std::from_chars(speed.data(), speed.data() + speed.size(), whole);
  if (ec != std::errc{}) return std::nullopt;
  int tenths = 0;
  if (ptr != speed.data() + speed.size() && *ptr == '.') {
    ++ptr;
    if (ptr == speed.data() + speed.size() || *ptr < '0' || *ptr > '9') return std::nullopt;
    tenths = *ptr - '0';
    while (ptr != speed.data() + speed.size() && *ptr >= '0' && *ptr <= '9')
      ++ptr;
  }
  const std::string_view rest(ptr, static_cast<std::size_t>(speed.data() + speed.size() - ptr));
  if (rest.find("GT/s") == std::string_view::npos) return std::nullopt;
  switch (whole * 10 + tenths) {
    case 25:
      return 1;
    case 50:
      return 2;
    case 80:
      return 3;
    case 160:
      return 4;
    case 320:
      return 5;
    case 640:
      return 6;
    default:
      return std::nullopt;
  }
}

std::optional<core::peak_info> pcie_peak(int generation, int width, int directions) {
  const double lane = core::pcie_lane_gbps(generation);
  if (lane <= 0 || width <= 0 || directions < 1) return std::nullopt;
  // Exact after encoding (Gen5 x16: 63.015 GB/s); published tables round it to 63.0.
  const double per_direction = lane * width;
  core::peak_info p;
  p.value = per_direction * directions;
  p.unit = "GB/s";
  p.basis =
      fmt::format("PCIe {}.0 x{}, {:.2f} GB/s per direction", generation, width, per_direction);
  if (directions > 1) p.basis += fmt::format(", {} directions", directions);
  return p;
}

std::optional<int> nvlink_generation(int cc_major, int cc_minor) {
  switch (cc_major) {
    case 6:
      return cc_minor == 0 ? std::optional<int>(1) : std::nullopt;
    case 7:
      return cc_minor == 0 ? std::optional<int>(2) : std::nullopt;  // V100; Turing has none
    case 8:
      return cc_minor == 0 || cc_minor == 6 ? std::optional<int>(3) : std::nullopt;
    case 9:
      return 4;
    case 10:
      return 5;
    default:
      return std::nullopt;
  }
}

double nvlink_link_gbps(int cc_major, int cc_minor) {
  const auto gen = nvlink_generation(cc_major, cc_minor);
  if (!gen) return 0;
  switch (*gen) {
    case 1:
      return 20.0;  // P100: 4 links, 160 GB/s both ways
    case 2:
      return 25.0;  // V100: 6 links, 150 GB/s per direction
    case 3:
      return cc_minor == 0 ? 25.0 : 14.0625;  // A100 12 links; GA10x bridge 4 links
    case 4:
      return 25.0;  // H100: 18 links, 450 GB/s per direction
    case 5:
      return 50.0;  // B200: 18 links, 900 GB/s per direction
    default:
      return 0;
  }
}

std::optional<core::peak_info> nvlink_peak(int cc_major, int cc_minor, int links, int directions) {
  const double rate = nvlink_link_gbps(cc_major, cc_minor);
  if (rate <= 0 || links <= 0 || directions < 1) return std::nullopt;
  core::peak_info p;
  p.value = rate * links * directions;
  p.unit = "GB/s";
  p.basis = fmt::format("NVLink {} x{} links, {:g} GB/s per link per direction",
                        *nvlink_generation(cc_major, cc_minor), links, rate);
  if (directions > 1) p.basis += fmt::format(", {} directions", directions);
  return p;
}

}  // namespace gpubench::benchmarks::gpu

// Byte sizes: parsing "4K", "1GiB", "64M:1G" and printing them, and power-of-two sweeps; the
// line rate of a PCIe lane.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpubench::core {

// Parses a byte count with an optional binary suffix (K, M, G, KiB, MiB, GiB; B allowed).
// Throws usage_error with the offending text.
std::uint64_t parse_bytes(std::string_view text);

// "4 KiB", "1 GiB", "48 B": exact binary units where the value divides evenly.
std::string format_bytes(std::uint64_t bytes);

struct size_range {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// "MIN:MAX" or a single size. Throws usage_error when MIN > MAX or a size is zero.
size_range parse_size_range(std::string_view text);

// min, 2*min, 4*min, ... up to max inclusive (max itself is included when it is not a power
// of two times min).
std::vector<std::uint64_t> power_of_two_sweep(std::uint64_t min, std::uint64_t max);

// GB/s (bytes) of one PCIe lane per direction after line coding: 8b/10b for Gen 1-2, 128b/130b
// for Gen 3-5, 242 of 256 FLIT bytes for Gen 6; 0 for a generation it does not know.
double pcie_lane_gbps(int generation);

}  // namespace gpubench::core

// Byte sizes: parsing "4K", "1GiB", "64M:1G", "2:1M:8" and printing them, and geometric sweeps;
// the line rate of a PCIe lane.
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
  std::uint64_t factor = 2;  // each size is the previous one times this (nccl-tests' -f)

  // "MIN:MAX", or "MIN:MAX:FACTOR" when the factor is not 2.
  std::string text() const;
};

// "MIN:MAX", "MIN:MAX:FACTOR" (a whole number, 2 or more) or a single size. Throws usage_error
// when MIN > MAX, a size is zero or the factor is out of range.
size_range parse_size_range(std::string_view text);

// min, f*min, f^2*min, ... up to max inclusive (max itself is included when it is not a power
// of f times min).
std::vector<std::uint64_t> geometric_sweep(std::uint64_t min, std::uint64_t max,
                                           std::uint64_t factor);

// geometric_sweep with factor 2.
std::vector<std::uint64_t> power_of_two_sweep(std::uint64_t min, std::uint64_t max);

// The sizes a range names.
std::vector<std::uint64_t> sweep(const size_range& r);

// GB/s (bytes) of one PCIe lane per direction after line coding: 8b/10b for Gen 1-2, 128b/130b
// for Gen 3-5, 242 of 256 FLIT bytes for Gen 6; 0 for a generation it does not know.
double pcie_lane_gbps(int generation);

}  // namespace gpubench::core

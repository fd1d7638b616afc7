// Line rates of the links a GPU copy crosses: PCIe generation x width after encoding, and
// NVLink links x per-link rate, as `peak` values with the basis spelled out.
#pragma once

#include <optional>
#include <string_view>

#include "core/result.hpp"

namespace gpubench::benchmarks::gpu {

// The PCIe generation of a sysfs link speed ("16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s");
// std::nullopt for "Unknown" or anything else it cannot read.
std::optional<int> pcie_generation(std::string_view speed);

// "PCIe 4.0 x16, 31.5 GB/s per direction" (core::pcie_lane_gbps x width); directions = 2 doubles
// the value for both ways.
std::optional<core::peak_info> pcie_peak(int generation, int width, int directions = 1);

// NVLink generation of a GPU from its compute capability: links carry no generation in
// sysfs, and NVML reports it inconsistently across driver branches.
std::optional<int> nvlink_generation(int cc_major, int cc_minor);
// Per-link, per-direction rate in GB/s of that generation on that GPU (GA10x bridges run
// slower links than A100), 0 when unknown.
double nvlink_link_gbps(int cc_major, int cc_minor);
std::optional<core::peak_info> nvlink_peak(int cc_major, int cc_minor, int links,
                                           int directions = 1);

}  // namespace gpubench::benchmarks::gpu

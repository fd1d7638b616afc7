// NVLink links between two GPUs from what NVML says of each link of each GPU: direct links
// to the other GPU, and links to NVSwitches (every GPU on a switch reaches every other).
#pragma once

#include <string>
#include <vector>

namespace gpubench::benchmarks::gpu {

// NVML's NVLINK_MAX_LINKS since r535 (18 before); links are walked until NVML says the
// index is invalid, at most this many.
inline constexpr unsigned nvlink_max_links = 36;

enum class nvlink_remote { unknown, gpu, nvswitch, other };

struct nvlink_end {
  bool active = false;
  nvlink_remote type = nvlink_remote::unknown;  // nvmlDeviceGetNvLinkRemoteDeviceType, if any
  std::string remote_bus;                       // normalized PCI bus id of the far end, or ""
};

// Links of `a` to `b`: the direct ones plus, through NVSwitches, as many as both have to
// switches. An active link whose far end is not one of `gpus` counts as a switch link when
// NVML cannot say the remote type (older drivers, or the call is not supported): without
// that, a switched system reads as zero links and is judged against a PCIe peak.
int nvlink_links_between(const std::vector<nvlink_end>& a, const std::string& bus_a,
                         const std::vector<nvlink_end>& b, const std::string& bus_b,
                         const std::vector<std::string>& gpus);

}  // namespace gpubench::benchmarks::gpu

// How two GPUs are connected, in the classes of `nvidia-smi topo -m`: NVLink with its link
// count, or the PCIe path (same switch, several switches, host bridge, across NUMA nodes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::benchmarks::gpu {

enum class pcie_path {
  pix,      // one PCIe switch between them
  pxb,      // several switches, no host bridge
  phb,      // through the host bridge (root complex) they share
  node,     // across host bridges of one NUMA node
  sys,      // across NUMA nodes (the CPU interconnect)
  unknown,  // sysfs did not say
};

std::string to_string(pcie_path p);  // "PIX", "PXB", "PHB", "NODE", "SYS", "unknown"

// From the sysfs paths of both devices (root complex first, device last) and their nodes.
pcie_path classify_pcie_path(const std::vector<std::string>& a, std::optional<int> a_numa,
                             const std::vector<std::string>& b, std::optional<int> b_numa);

struct pair_link {
  std::string kind = "unknown";  // "nvlink" | "pcie" | "unknown" (NVML absent)
  int nvlink_links = 0;
  std::optional<int> nvlink_generation;
  pcie_path pcie = pcie_path::unknown;
  // nvidia-smi's label: "NV12", "PIX", "SYS", ...
  std::string label() const;
};

nlohmann::json to_json(const pair_link& l);

}  // namespace gpubench::benchmarks::gpu

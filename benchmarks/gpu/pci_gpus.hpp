// NVIDIA GPUs as the kernel sees them in sysfs (vendor 0x10de, class 0x03xxxx): bus id,
// NUMA node, PCIe link current and maximum, and the bridge path used to classify pairs.
// Needs no CUDA, so the topology is known on hosts without a driver too.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::benchmarks::gpu {

struct pcie_link_state {
  std::optional<int> generation;
  std::optional<int> width;
  std::string speed;  // as sysfs says it: "16.0 GT/s PCIe"
};

struct pci_gpu {
  std::string bus_id;     // "0000:3b:00.0", lower case
  std::string device_id;  // "0x20b0"
  std::optional<int> numa_node;
  pcie_link_state current;
  pcie_link_state max;
  // The port above the GPU (root or switch downstream port): the link's other end, which
  // may be slower than the GPU (a Gen4 GPU in a Gen3 slot).
  pcie_link_state upstream_max;
  // Path from the root complex down, e.g. {"pci0000:3a", "0000:3a:00.0", "0000:3b:00.0"}.
  std::vector<std::string> path;
};

// Scans <sys>/bus/pci/devices; unreadable attributes stay unset.
std::vector<pci_gpu> scan_pci_gpus(const std::filesystem::path& sys_root);

// The generation and width the link can run at: the lower of the GPU's and its port's
// maxima (links train to the slower end; the current value drops at idle, so it is not used).
pcie_link_state usable_link(const pci_gpu& g);

// "0000:3B:00.0" or "00000000:3B:00.0" (CUDA, NVML) -> "0000:3b:00.0".
std::string normalize_bus_id(std::string_view id);

nlohmann::json to_json(const pcie_link_state& l);

}  // namespace gpubench::benchmarks::gpu

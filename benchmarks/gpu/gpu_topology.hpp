// The GPU part of the machine's topology: sysfs's PCI view joined with what CUDA and NVML
// say per device and per pair, the link class of every pair, and the peak of every path.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks/gpu/gpu_backend.hpp"
#include "benchmarks/gpu/pair_link.hpp"
#include "benchmarks/gpu/pci_gpus.hpp"
#include "core/result.hpp"

namespace gpubench::benchmarks::gpu {

struct gpu_topology {
  std::vector<pci_gpu> pci;                    // every NVIDIA GPU in sysfs, by bus id
  std::vector<device_facts> devices;           // every CUDA device, by CUDA index
  std::vector<std::vector<pair_facts>> pairs;  // [a][b] for CUDA indexes, a != b
  std::vector<std::string> notes;              // what could not be learnt, and why

  const pci_gpu* pci_of(int cuda_index) const;
  // NUMA node of a CUDA device: sysfs, else CUDA's host NUMA id.
  std::optional<int> numa_of(int cuda_index) const;
  pair_link link(int a, int b) const;
  // Host<->GPU path of these GPUs together (the sum of their PCIe links).
  std::optional<core::peak_info> host_peak(const std::vector<int>& gpus, int directions) const;
  // GPU<->GPU: NVLink links x rate, else the slower PCIe link; staged goes over both PCIe links.
  std::optional<core::peak_info> p2p_peak(int src, int dst, bool staged, int directions) const;
};

// Reads sysfs under `sys_root` and asks the backend about devices and pairs (when it has any).
gpu_topology load_topology(const backend& b, const std::filesystem::path& sys_root = "/sys");

// The system block's "gpus" and "gpu_pairs" arrays.
nlohmann::json gpus_json(const gpu_topology& t);
nlohmann::json gpu_pairs_json(const gpu_topology& t);

}  // namespace gpubench::benchmarks::gpu

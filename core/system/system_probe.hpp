// What this machine is: host, OS, CPU, NUMA, virtualization, NICs, RDMA devices, GPUs and
// software versions, as the `system` block of every result file and `gpubench topo`.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// Where the probe reads the kernel's view of the machine; tests point these at fixtures.
struct probe_roots {
  std::filesystem::path sys = "/sys";
  std::filesystem::path proc = "/proc";
  std::filesystem::path etc = "/etc";
};

nlohmann::json probe_host(const probe_roots& roots);  // host, os, kernel, cpu, memory
nlohmann::json probe_numa();                          // NUMA nodes with CPUs and memory (hwloc)

// The whole system block (the registry's family probes are added by the caller).
nlohmann::json probe_system(const probe_roots& roots = {});

}  // namespace gpubench::core

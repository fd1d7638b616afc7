// What this machine is: host, OS, CPU, NUMA, virtualization, NICs, RDMA devices, GPUs and
// software versions, as the `system` block of every result file and `gpubench topo`.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// Where the probe reads the kernel's view of the machine; tests point these at fixtures.
struct probe_roots {
  std::filesystem::path sys = "/sys";
  std::filesystem::path proc = "/proc";
  std::filesystem::path etc = "/etc";
  // hwloc's XML export of another machine (lstopo --of xml); empty: this machine's topology.
  std::filesystem::path hwloc_xml;
  // What the kernel and CPU tell through calls rather than files. Unset: ask this machine
  // (cpuid, getifaddrs); fixtures of another machine set them.
  std::optional<std::string> hypervisor_signature;  // cpuid 0x40000000; "" = bare metal
  std::optional<std::map<std::string, std::vector<std::string>>> ipv4;  // "a.b.c.d/len" by NIC
};

nlohmann::json probe_host(const probe_roots& roots);  // host, os, kernel, arch, cpu, memory
// NUMA nodes with CPUs and memory, and sockets/cores/threads merged into `cpu` (hwloc).
nlohmann::json probe_numa(const probe_roots& roots);
// {"virtualization": "vmware|kvm|hyper-v|xen|...|none|unknown", "platform": {...}}
nlohmann::json probe_virtualization(const probe_roots& roots);
// Versions found without optional libraries: compiler, hwloc, NVIDIA kernel driver.
nlohmann::json probe_software(const probe_roots& roots);

// The whole system block. `gpus`, `rdma_devices`, `nics` (arrays) and `software` (object)
// always exist: family probes (registry.add_system_probe) merge into them.
nlohmann::json probe_system(const probe_roots& roots = {});

class registry;
// The `system` block of a result file: this machine (probe_system) plus what each benchmark
// family's probe adds (GPUs, RDMA devices, software versions).
nlohmann::json describe_system(const registry& registry);

}  // namespace gpubench::core

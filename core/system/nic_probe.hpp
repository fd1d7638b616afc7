// Network interfaces as sysfs shows them (/sys/class/net): driver, state, speed, MTU, NUMA
// node, PCI address and whether the device is virtual, for the `nics` of the system block.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/system/system_probe.hpp"

namespace gpubench::core {

struct nic_info {
  std::string name;
  std::string kind;  // physical | veth | bridge | bond | vlan | tun | wireless | virtual
  bool is_virtual = false;
  std::optional<std::string> driver;       // from device/driver (physical devices)
  std::string operstate;                   // up | down | unknown | ...
  std::optional<std::int64_t> speed_mbps;  // absent when the link reports none (-1, EINVAL)
  std::optional<std::int64_t> mtu;
  std::optional<std::int64_t> numa_node;  // absent when the firmware says -1
  std::optional<std::string> pci;         // nearest PCI function, "0000:3b:00.0"
  std::optional<std::string> pcie_link;   // "8.0 GT/s PCIe x16" when the device reports it
  std::optional<std::string> master;      // the bridge or bond this interface belongs to
  std::vector<std::string> rdma_devices;  // RDMA devices on the same function ("mlx5_0")
  std::vector<std::string> ipv4;          // "198.18.0.1/24"
};

// Every interface except loopback, sorted by name.
std::vector<nic_info> probe_nics(const probe_roots& roots);

// One interface by name, or std::nullopt when sysfs has no such interface.
std::optional<nic_info> probe_nic(const probe_roots& roots, const std::string& name);

// IPv4 addresses of this machine's interfaces, from getifaddrs, as "a.b.c.d/prefix".
std::map<std::string, std::vector<std::string>> local_ipv4_addresses();

nlohmann::json to_json(const nic_info& nic);

}  // namespace gpubench::core

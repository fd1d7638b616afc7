// The network interface a connection leaves through (by its local address) and what sysfs
// says of it: speed, MTU, NUMA node. Labels each network result with the path it crossed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::transports::net {

struct interface_info {
  std::string name;
  bool loopback = false;
  std::optional<long long> speed_mbps;  // absent when the driver does not report one
  std::optional<long long> mtu;
  std::optional<long long> numa_node;  // absent or -1 in sysfs: not NUMA-attached
};

// The interface holding `address` (numeric IPv4/IPv6), or nullopt.
std::optional<interface_info> interface_for_address(
    const std::string& address, const std::filesystem::path& sysfs_net = "/sys/class/net");

// What sysfs says of interface `name`.
interface_info describe_interface(const std::string& name,
                                  const std::filesystem::path& sysfs_net = "/sys/class/net");

// {"interface", "speed_mbps", "mtu", "numa"} with only the known fields.
nlohmann::json to_json(const interface_info& i);

// speed / 8 in GB/s per direction (twice that when both directions count), or nullopt when
// the speed is unknown.
std::optional<core::peak_info> line_rate(const interface_info& i, bool both_directions);

}  // namespace gpubench::transports::net

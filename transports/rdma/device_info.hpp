// RDMA devices as sysfs describes them (/sys/class/infiniband): provider, link layer, rate,
// firmware, NUMA node, and a label a report can print ("PVRDMA (VMware paravirtual) over RoCE").
// Reads files only, so `gpubench topo` lists devices on builds without libibverbs too.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "transports/rdma/port_rate.hpp"

namespace gpubench::transports::rdma {

struct port_description {
  int number = 0;
  std::string state;       // "ACTIVE", "DOWN", ...
  std::string link_layer;  // "InfiniBand" | "Ethernet"
  std::string rate_text;   // "100 Gb/sec (4X EDR)"
  std::optional<line_rate> rate;
  std::optional<int> lid;
  std::vector<std::string> netdevs;  // Ethernet interfaces behind the port's GIDs
  std::vector<std::string> gids;     // non-zero GID table entries, as sysfs writes them
};

struct device_description {
  std::string name;       // "mlx5_0"
  std::string provider;   // "mlx5", "vmw_pvrdma", "rxe", ...
  std::string driver;     // kernel driver of the PCI function, when there is one
  std::string node_type;  // "CA", "RNIC"
  std::string firmware;
  std::string hca_type;
  std::string board_id;
  std::optional<int> numa_node;
  std::string pci_address;
  std::vector<port_description> ports;
};

// The provider from the kernel driver name, or from the device name when there is no driver
// link (soft devices): "mlx5_core" -> "mlx5", "rxe0" -> "rxe", "vmw_pvrdma0" -> "vmw_pvrdma".
std::string provider_from(const std::string& driver, const std::string& device_name);
// "PVRDMA (VMware paravirtual)", "NVIDIA ConnectX (mlx5)", ...; unknown providers as given.
std::string provider_label(const std::string& provider);
// The whole path in words: "PVRDMA (VMware paravirtual) over RoCE", "InfiniBand HDR (mlx5)".
std::string path_label(const std::string& provider, const std::string& node_type,
                       const std::string& link_layer, const std::string& rate_text);

// Every device under `root` (default /sys/class/infiniband); empty when there is none.
std::vector<device_description> describe_devices(
    const std::filesystem::path& root = "/sys/class/infiniband");

nlohmann::json to_json(const device_description& d);

// The device an endpoint will pick without --rdma-device (what the case's params name before
// any connection): the first whose port `port` is active and whose GID table holds
// `local_address` (the address the control connection leaves from), else the first with the
// port active, else the first device; empty when there is none.
std::string expected_device(const std::vector<device_description>& devices, int port,
                            const std::string& local_address);

// Sets system["rdma_devices"] to every device under `root`, leaving the other keys alone.
void add_rdma_devices(nlohmann::json& system,
                      const std::filesystem::path& root = "/sys/class/infiniband");

}  // namespace gpubench::transports::rdma

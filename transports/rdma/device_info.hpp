// RDMA devices as sysfs describes them (/sys/class/infiniband): provider, link layer, rate,
// firmware, NUMA node, and a label a report can print ("PVRDMA (VMware paravirtual) over RoCE").
// Reads files only, so `gpubench topo` lists devices on builds without libibverbs too.
#pragma once

#include <filesystem>
#include <map>
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
  std::vector<std::string> netdevs;          // Ethernet interfaces behind the port's GIDs
  std::map<int, std::string> netdev_of_gid;  // gid_attrs/ndevs/<index>
  std::vector<std::string> gids;             // non-zero GID table entries, as sysfs writes them
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
  std::vector<std::string> pci_netdevs;  // device/net/*: interfaces of the same PCI function
  std::vector<port_description> ports;
};

// The provider from the kernel driver name, or from the device name when there is no driver
// link (soft devices): "mlx5_core" -> "mlx5", "rxe0" -> "rxe", "vmw_pvrdma0" -> "vmw_pvrdma".
std::string provider_from(const std::string& driver, const std::string& device_name);
// "PVRDMA (VMware paravirtual)", "NVIDIA ConnectX (mlx5)", ...; unknown providers as given.
std::string provider_label(const std::string& provider);
// iWARP (node type RNIC, or an iWARP-only provider): its queue pairs connect only through
// rdma_cm (the connection is set up over TCP), never by moving them through the states by hand.
bool is_iwarp(const std::string& provider, const std::string& node_type);
// Why an iWARP device is skipped on the control channel path, and what to use instead.
std::string iwarp_manual_refusal(const std::string& device);
// Whether the device has reliable-connected queue pairs, which every net.rdma case uses (as
// perftest's default -c RC): AWS EFA offers only SRD and UD, Cisco usNIC only UD, and both
// say so with a node type of their own ("unspecified", "usNIC", "usNIC UDP").
bool has_rc(const std::string& provider, const std::string& node_type);
// Why such a device's cases are skipped, and what measures it instead.
std::string no_rc_refusal(const std::string& device, const std::string& provider);
// The whole path in words: "PVRDMA (VMware paravirtual) over RoCE", "InfiniBand HDR (mlx5)",
// "AWS Elastic Fabric Adapter (efa), SRD only"; a link layer neither InfiniBand nor
// Ethernet is named as sysfs gives it.
std::string path_label(const std::string& provider, const std::string& node_type,
                       const std::string& link_layer, const std::string& rate_text);

// Every device under `root` (default /sys/class/infiniband); empty when there is none.
std::vector<device_description> describe_devices(
    const std::filesystem::path& root = "/sys/class/infiniband");

nlohmann::json to_json(const device_description& d);

// The Ethernet interface behind port `port` of a RoCE device: the one of GID `gid_index` (the
// GID in use), else the port's first, else the first of the device's PCI function; empty when
// sysfs names none.
std::string port_netdev(const device_description& d, int port, int gid_index);
// What sysfs says of an interface's link: /sys/class/net/<name>/speed and its driver.
netdev_link read_netdev_link(const std::string& name,
                             const std::filesystem::path& sysfs_net = "/sys/class/net");

// Sets system["rdma_devices"] to every device under `root`, leaving the other keys alone.
void add_rdma_devices(nlohmann::json& system,
                      const std::filesystem::path& root = "/sys/class/infiniband");

}  // namespace gpubench::transports::rdma

// Which RDMA device a case uses when --rdma-device is not given: the one on the path of the
// control connection (its GID table holds the local address, or the local address's interface
// sits on it), else the only active one, and on a host with several active devices a refusal
// naming them. Reads sysfs only, so the choice is made the same way before a case (its params)
// and in the endpoint, and unit tests drive it with fixture trees.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "transports/rdma/device_info.hpp"

namespace gpubench::transports::rdma {

// What is known of the control connection's local end.
struct control_path {
  std::string local_address;  // numeric; empty when unknown
  std::string interface;      // the interface holding it; empty when unknown
  bool loopback = false;      // 127.0.0.0/8, ::1 or the loopback interface: the peer is this host
  // RDMA devices the interface sits on: /sys/class/net/<if>/device/infiniband/* (the netdev's
  // PCI function, an IPoIB or RoCE interface), else those whose port GID is the last 16 bytes
  // of an IPoIB interface's hardware address (pkey child interfaces have no device link).
  std::vector<std::string> devices;
};

// The control path of `local_address`: its interface (getifaddrs) and what sysfs says of it.
control_path control_path_for(const std::string& local_address,
                              const std::filesystem::path& sysfs_net = "/sys/class/net");
// The interface part of control_path_for, for a known interface name: the RDMA devices it sits
// on (`ib_root`: /sys/class/infiniband, for the IPoIB GID match).
std::vector<std::string> devices_of_interface(
    const std::string& interface, const std::filesystem::path& sysfs_net = "/sys/class/net",
    const std::filesystem::path& ib_root = "/sys/class/infiniband");

struct device_choice {
  std::string device;    // empty: no device chosen (none active, or refused)
  std::string why;       // the rule that chose it, for the context's device_choice; or the refusal
  bool refused = false;  // several active devices, none on the control path
};

// The rules, in order: the device whose active port's GID table holds the local address (RoCE:
// a GID is an IP address of the port's interface); the device the local address's interface
// sits on (InfiniBand: IPoIB); the only device with the port active; in loopback (both queue
// pairs on this host, so any device serves) the first active one. Otherwise, with several
// active devices, a refusal naming them: guessing picks another rail or fabric on multi-rail
// hosts, and the case ends in retry-exceeded. No device active: empty, not refused.
device_choice choose_device(const std::vector<device_description>& devices, int port,
                            const control_path& path);

}  // namespace gpubench::transports::rdma

// The network interfaces a collective (or a cluster pair) may cross and their speed, so a
// result names the link ("eth1, 100000 Mb/s") and its line rate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::transports::net {

struct net_interface {
  std::string name;
  std::vector<std::string> ipv4;  // dotted quads
  long speed_mbps = -1;           // -1: unknown (virtual links often say nothing)
  bool up = false;
  bool loopback = false;
  std::string driver;  // the kernel driver (/sys/class/net/<name>/device/driver)
};

// This host's interfaces (getifaddrs, /sys/class/net/<name>/speed).
std::vector<net_interface> list_interfaces();

// The interfaces `selectors` allow, as the libraries read them: a name prefix ("eth"), an
// exact name ("=eth0"), an exclusion ("^docker"), or an IPv4 CIDR ("198.18.0.0/15"). With no
// selector: every up, non-loopback interface.
std::vector<net_interface> select_interfaces(const std::vector<net_interface>& all,
                                             const std::vector<std::string>& selectors);

// Whether `address` (dotted quad) lies in `cidr` ("a.b.c.d/n"); false for malformed input.
bool in_cidr(const std::string& address, const std::string& cidr);

// /sys/class/infiniband has a device (RDMA is possible on this host).
bool rdma_devices_present();

nlohmann::json to_json(const net_interface& i);

// The basis of a peak taken from the sysfs speed: what the driver claims, not a measured
// uplink (vmxnet3 reports 10000 Mb/s whatever the host's uplink is), and said so.
std::string speed_peak_basis(const net_interface& i);

}  // namespace gpubench::transports::net

#include "core/system/nic_probe.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <memory>
#include <sstream>

#include "core/system/sysfs.hpp"

namespace gpubench::core {

namespace fs = std::filesystem;

namespace {

constexpr long long arphrd_loopback = 772;

// "0000:3b:00.0": domain:bus:device.function, as sysfs names a PCI function's directory.
bool is_pci_address(const std::string& s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return s[11] >= '0' && s[11] <= '7';
}

std::optional<std::string> link_name(const fs::path& link) {
  std::error_code ec;
  const auto target = fs::read_symlink(link, ec);
  if (ec) return std::nullopt;
  return target.filename().string();
}

std::optional<std::string> uevent_value(const fs::path& dir, const std::string& key) {
  const auto text = read_text(dir / "uevent");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + "=", 0) == 0) return line.substr(key.size() + 1);
  return std::nullopt;
}

bool has_entry_starting_with(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) return true;
  return false;
}

// Virtual interfaces have no `device`; what they are shows in markers the kernel leaves:
// DEVTYPE in uevent (bridge, bond, vlan, wlan), tun_flags, or a link to a peer (veth) that
// is not a lower device (vlan, macvlan).
std::string virtual_kind(const fs::path& dir) {
  std::error_code ec;
  if (auto devtype = uevent_value(dir, "DEVTYPE"))
    return *devtype == "wlan" ? "wireless" : *devtype;
  if (fs::exists(dir / "bridge", ec)) return "bridge";
  if (fs::exists(dir / "bonding", ec)) return "bond";
  if (fs::exists(dir / "tun_flags", ec)) return "tun";
  const auto ifindex = read_int(dir / "ifindex");
  const auto iflink = read_int(dir / "iflink");
  if (ifindex && iflink && *ifindex != *iflink && !has_entry_starting_with(dir, "lower_"))
    return "veth";
  return "virtual";
}

// The device and its ancestors up to the sysfs root, nearest first (a virtio NIC's PCI
// function and NUMA node sit one level above the virtio device).
std::vector<fs::path> device_chain(const fs::path& device, const fs::path& sys_root) {
  std::error_code ec;
  std::vector<fs::path> chain;
  auto p = fs::canonical(device, ec);
  if (ec) return chain;
  const auto root = fs::canonical(sys_root, ec);
  while (!p.empty() && p != root && p.has_relative_path() && p != p.root_path()) {
    chain.push_back(p);
    p = p.parent_path();
  }
  return chain;
}

void describe_device(nic_info& nic, const fs::path& dir, const fs::path& sys_root) {
  const auto device = dir / "device";
  nic.driver = link_name(device / "driver");
  std::error_code ec;
  nic.kind = fs::exists(dir / "wireless", ec) || fs::exists(dir / "phy80211", ec) ? "wireless"
                                                                                  : "physical";
  for (const auto& p : device_chain(device, sys_root)) {
    if (!nic.numa_node)
      if (auto numa = read_int(p / "numa_node"); numa && *numa >= 0) nic.numa_node = numa;
    if (!nic.pci && is_pci_address(p.filename().string())) {
      nic.pci = p.filename().string();
      auto speed = read_line(p / "current_link_speed");
      auto width = read_line(p / "current_link_width");
      if (speed && width && *speed != "Unknown" && *width != "0")
        nic.pcie_link = *speed + " x" + *width;
      for (const auto& e : fs::directory_iterator(p / "infiniband", ec))
        nic.rdma_devices.push_back(e.path().filename().string());
      std::sort(nic.rdma_devices.begin(), nic.rdma_devices.end());
    }
  }
}

nic_info read_nic(const fs::path& dir, const fs::path& sys_root) {
  nic_info nic;
  nic.name = dir.filename().string();
  nic.operstate = read_line(dir / "operstate").value_or("unknown");
  if (auto speed = read_int(dir / "speed"); speed && *speed > 0) nic.speed_mbps = speed;
  nic.mtu = read_int(dir / "mtu");
  nic.master = link_name(dir / "master");
  std::error_code ec;
  if (fs::exists(dir / "device", ec)) {
    describe_device(nic, dir, sys_root);
  } else {
    nic.is_virtual = true;
    nic.kind = virtual_kind(dir);
  }
  return nic;
}

using address_map = std::map<std::string, std::vector<std::string>>;

void attach_ipv4(nic_info& nic, const address_map& addresses) {
  if (auto it = addresses.find(nic.name); it != addresses.end()) nic.ipv4 = it->second;
}

}  // namespace

std::optional<nic_info> probe_nic(const probe_roots& roots, const std::string& name) {
  const auto dir = roots.sys / "class" / "net" / name;
  std::error_code ec;
  // A name is one path component of /sys/class/net, never a way out of it.
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      !fs::exists(dir, ec))
    return std::nullopt;
  auto nic = read_nic(dir, roots.sys);
  attach_ipv4(nic, roots.ipv4 ? *roots.ipv4 : local_ipv4_addresses());
  return nic;
}

std::vector<nic_info> probe_nics(const probe_roots& roots) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(roots.sys / "class" / "net", ec))
    if (read_int(e.path() / "type") != arphrd_loopback && e.path().filename() != "lo")
      dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  const auto addresses = roots.ipv4 ? *roots.ipv4 : local_ipv4_addresses();
  std::vector<nic_info> nics;
  for (const auto& dir : dirs) {
    nics.push_back(read_nic(dir, roots.sys));
    attach_ipv4(nics.back(), addresses);
  }
  return nics;
}

std::map<std::string, std::vector<std::string>> local_ipv4_addresses() {
  std::map<std::string, std::vector<std::string>> out;
  ifaddrs* head = nullptr;
  if (::getifaddrs(&head) != 0) return out;
  const std::unique_ptr<ifaddrs, decltype(&::freeifaddrs)> guard(head, &::freeifaddrs);
  for (const ifaddrs* i = head; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    char buf[INET_ADDRSTRLEN] = {};
    const auto* addr = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
    if (!::inet_ntop(AF_INET, &addr->sin_addr, buf, sizeof buf)) continue;
    int prefix = 32;
    if (i->ifa_netmask)
      prefix = std::popcount(
          ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_netmask)->sin_addr.s_addr));
    out[i->ifa_name].push_back(std::string(buf) + "/" + std::to_string(prefix));
  }
  return out;
}

nlohmann::json to_json(const nic_info& nic) {
  nlohmann::json j = {{"name", nic.name},
                      {"kind", nic.kind},
                      {"virtual", nic.is_virtual},
                      {"operstate", nic.operstate}};
  if (nic.driver) j["driver"] = *nic.driver;
  if (nic.speed_mbps) j["speed_mbps"] = *nic.speed_mbps;
  if (nic.mtu) j["mtu"] = *nic.mtu;
  if (nic.numa_node) j["numa_node"] = *nic.numa_node;
  if (nic.pci) j["pci"] = *nic.pci;
  if (nic.pcie_link) j["pcie_link"] = *nic.pcie_link;
  if (nic.master) j["master"] = *nic.master;
  if (!nic.rdma_devices.empty()) j["rdma_devices"] = nic.rdma_devices;
  j["ipv4"] = nic.ipv4;
  return j;
}

}  // namespace gpubench::core

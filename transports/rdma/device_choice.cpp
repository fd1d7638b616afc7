#include "transports/rdma/device_choice.hpp"

#include <algorithm>
#include <cstdio>

#include "core/system/sysfs.hpp"
#include "transports/net/interface_info.hpp"
#include "transports/rdma/cm_loopback.hpp"
#include "transports/rdma/gid_select.hpp"

namespace gpubench::transports::rdma {

namespace fs = std::filesystem;

namespace {

constexpr long long arphrd_infiniband = 32;

std::vector<std::string> child_names(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// An IPoIB hardware address is 20 bytes: 4 of flags and QPN, then the port GID. Returns the
// GID in the form sysfs writes GIDs ("fe80:0000:...:4e2c"), or empty.
std::string gid_of_ipoib_address(const std::string& hw) {
  unsigned b[20];
  if (std::sscanf(hw.c_str(),
                  "%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x",
                  &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10],
                  &b[11], &b[12], &b[13], &b[14], &b[15], &b[16], &b[17], &b[18], &b[19]) != 20)
    return {};
  std::string gid;
  for (int i = 4; i < 20; i += 2) {
    char group[16];
    std::snprintf(group, sizeof group, "%02x%02x", b[i], b[i + 1]);
    gid += (gid.empty() ? "" : ":") + std::string(group);
  }
  return gid;
}

bool holds(const port_description& p, const gid_bytes& address) {
  return std::any_of(p.gids.begin(), p.gids.end(),
                     [&](const std::string& text) { return gid_of_address(text) == address; });
}

const port_description* active_port(const device_description& d, int port) {
  for (const auto& p : d.ports)
    if (p.number == port && p.state == "ACTIVE") return &p;
  return nullptr;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string address_text(const control_path& path) {
  std::string a = path.local_address.empty() ? std::string("the control connection's address")
                                             : path.local_address;
  if (!path.interface.empty()) a += " (interface " + path.interface + ")";
  return a;
}

}  // namespace

std::vector<std::string> devices_of_interface(const std::string& interface,
                                              const fs::path& sysfs_net, const fs::path& ib_root) {
  if (interface.empty()) return {};
  const fs::path dir = sysfs_net / interface;
  auto out = child_names(dir / "device" / "infiniband");
  if (!out.empty() || core::read_int(dir / "type") != arphrd_infiniband) return out;
  // IPoIB without a device link (a pkey child interface): the port whose GID is in the address.
  const auto hw = core::read_line(dir / "address");
  const std::string gid = hw ? gid_of_ipoib_address(*hw) : std::string();
  if (gid.empty()) return out;
  for (const auto& d : describe_devices(ib_root))
    for (const auto& p : d.ports)
      if (std::find(p.gids.begin(), p.gids.end(), gid) != p.gids.end() &&
          std::find(out.begin(), out.end(), d.name) == out.end())
        out.push_back(d.name);
  return out;
}

control_path control_path_for(const std::string& local_address, const fs::path& sysfs_net) {
  control_path path;
  path.local_address = local_address;
  path.loopback = is_loopback_address(local_address);
  if (local_address.empty()) return path;
  if (const auto i = net::interface_for_address(local_address, sysfs_net)) {
    path.interface = i->name;
    path.loopback = path.loopback || i->loopback;
    path.devices = devices_of_interface(i->name, sysfs_net);
  }
  return path;
}

device_choice choose_device(const std::vector<device_description>& devices, int port,
                            const control_path& path) {
  const std::string port_text = "port " + std::to_string(port);
  std::vector<std::string> active;
  for (const auto& d : devices)
    if (active_port(d, port)) active.push_back(d.name);
  if (active.empty()) return {};

  if (const auto address = gid_of_address(path.local_address))
    for (const auto& d : devices)
      if (const auto* p = active_port(d, port); p && holds(*p, *address))
        return {d.name, "its " + port_text + " GID table holds " + address_text(path) +
                            ", the control connection's local address"};
  for (const auto& name : path.devices)
    if (std::find(active.begin(), active.end(), name) != active.end())
      return {name, "interface " + path.interface + " (" + path.local_address +
                        ", the control connection's local address) sits on it"};
  if (active.size() == 1)
    return {active.front(), "the only device with an active " + port_text + " (none holds " +
                                address_text(path) + ")"};
  if (path.loopback)
    return {active.front(),
            "loopback: both queue pairs are on this host, so the first device "
            "with an active " +
                port_text + " (others: " +
                joined(std::vector<std::string>(active.begin() + 1, active.end())) + ")"};
  device_choice refused;
  refused.refused = true;
  refused.why = "several RDMA devices have an active " + port_text + " (" + joined(active) +
                ") and none of them holds or sits under " + address_text(path) +
                ", the control connection's local address";
  if (!path.devices.empty())
    refused.why += " (" + path.interface + " sits on " + joined(path.devices) + ", whose " +
                   port_text + " is not active)";
  refused.why +=
      ": guessing may pick another rail or fabric, which ends in retry-exceeded. Name the "
      "device with --rdma-device (the --peer server's with --peer-rdma-device)";
  return refused;
}

}  // namespace gpubench::transports::rdma

#include "transports/net/interface_info.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "core/system/sysfs.hpp"

namespace gpubench::transports::net {

namespace {

std::string numeric(const sockaddr* a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a->sa_family == AF_INET)
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a)->sin_addr, buf, sizeof buf);
  else if (a->sa_family == AF_INET6)
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr, buf, sizeof buf);
  return buf;
}

}  // namespace

std::optional<interface_info> interface_for_address(const std::string& address,
                                                    const std::filesystem::path& sysfs_net) {
  ifaddrs* head = nullptr;
  if (::getifaddrs(&head) != 0) return std::nullopt;
  std::unique_ptr<ifaddrs, decltype(&::freeifaddrs)> guard(head, &::freeifaddrs);
  // An IPv4 peer reached over an IPv6 socket shows as ::ffff:a.b.c.d.
  const std::string plain = address.rfind("::ffff:", 0) == 0 ? address.substr(7) : address;
  for (ifaddrs* i = head; i; i = i->ifa_next) {
    if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
      continue;
    if (numeric(i->ifa_addr) != plain) continue;
    auto info = describe_interface(i->ifa_name, sysfs_net);
    info.loopback = info.loopback || (i->ifa_flags & IFF_LOOPBACK) != 0;
    return info;
  }
  return std::nullopt;
}

interface_info describe_interface(const std::string& name, const std::filesystem::path& sysfs_net) {
  interface_info info;
  info.name = name;
  const auto dir = sysfs_net / name;
  info.loopback = core::read_int(dir / "type") == 772;  // ARPHRD_LOOPBACK
  // Virtual links (veth, lo) report -1 or refuse the read: unknown, not zero.
  if (auto speed = core::read_int(dir / "speed"); speed && *speed > 0) info.speed_mbps = speed;
  info.mtu = core::read_int(dir / "mtu");
  if (auto numa = core::read_int(dir / "device" / "numa_node"); numa && *numa >= 0)
    info.numa_node = numa;
  return info;
}

nlohmann::json to_json(const interface_info& i) {
  nlohmann::json j = {{"interface", i.name}};
  if (i.speed_mbps) j["speed_mbps"] = *i.speed_mbps;
  if (i.mtu) j["mtu"] = *i.mtu;
  if (i.numa_node) j["numa"] = *i.numa_node;
  return j;
}

std::optional<core::peak_info> line_rate(const interface_info& i, bool both_directions) {
  if (!i.speed_mbps) return std::nullopt;
  const double per_direction = static_cast<double>(*i.speed_mbps) / 8.0 / 1000.0;
  core::peak_info p;
  p.unit = "GB/s";
  p.value = both_directions ? 2 * per_direction : per_direction;
  p.basis = fmt::format("{} at {} Mb/s: {:.3g} GB/s per direction{}", i.name, *i.speed_mbps,
                        per_direction, both_directions ? ", both directions counted" : "");
  return p;
}

}  // namespace gpubench::transports::net

#include "transports/net/net_interfaces.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <memory>

namespace gpubench::transports::net {

namespace {

long read_speed(const std::string& name) {
  std::ifstream in("/sys/class/net/" + name + "/speed");
  long v = -1;
  if (!(in >> v) || v <= 0) return -1;  // EINVAL on a down link, -1 on virtual ones
  return v;
}

std::string read_driver(const std::string& name) {
  std::error_code ec;
  const auto target =
      std::filesystem::read_symlink("/sys/class/net/" + name + "/device/driver", ec);
  return ec ? "" : target.filename().string();
}

std::optional<std::uint32_t> parse_ipv4(const std::string& text) {
  in_addr a{};
  if (::inet_pton(AF_INET, text.c_str(), &a) != 1) return std::nullopt;
  return ntohl(a.s_addr);
}

}  // namespace

std::vector<net_interface> list_interfaces() {
  std::vector<net_interface> out;
  ifaddrs* raw = nullptr;
  if (::getifaddrs(&raw) != 0) return out;
  std::unique_ptr<ifaddrs, decltype(&::freeifaddrs)> list(raw, &::freeifaddrs);
  for (ifaddrs* a = raw; a; a = a->ifa_next) {
    if (!a->ifa_name) continue;
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const net_interface& i) { return i.name == a->ifa_name; });
    if (it == out.end()) {
      net_interface i;
      i.name = a->ifa_name;
      i.up = (a->ifa_flags & IFF_UP) && (a->ifa_flags & IFF_RUNNING);
      i.loopback = (a->ifa_flags & IFF_LOOPBACK) != 0;
      i.speed_mbps = read_speed(i.name);
      i.driver = read_driver(i.name);
      out.push_back(std::move(i));
      it = out.end() - 1;
    }
    if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET) {
      char buf[INET_ADDRSTRLEN] = {};
      const auto* sin = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
      if (::inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof buf)) it->ipv4.emplace_back(buf);
    }
  }
  return out;
}

bool in_cidr(const std::string& address, const std::string& cidr) {
  const auto slash = cidr.find('/');
  if (slash == std::string::npos) return false;
  const auto net = parse_ipv4(cidr.substr(0, slash));
  const auto addr = parse_ipv4(address);
  int bits = -1;
  const std::string b = cidr.substr(slash + 1);
  auto [end, ec] = std::from_chars(b.data(), b.data() + b.size(), bits);
  if (!net || !addr || ec != std::errc{} || end != b.data() + b.size() || bits < 0 || bits > 32)
    return false;
  const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  return (*net & mask) == (*addr & mask);
}

std::vector<net_interface> select_interfaces(const std::vector<net_interface>& all,
                                             const std::vector<std::string>& selectors) {
  std::vector<net_interface> out;
  for (const auto& i : all) {
    if (!i.up) continue;
    bool take = selectors.empty() ? !i.loopback : false;
    bool excluded = false;
    for (const auto& s : selectors) {
      if (s.empty()) continue;
      if (s[0] == '^') {
        // An exclusion list alone means "everything else".
        if (i.name.rfind(s.substr(1), 0) == 0)
          excluded = true;
        else if (!i.loopback)
          take = true;
      } else if (s[0] == '=') {
        take = take || i.name == s.substr(1);
      } else if (s.find('/') != std::string::npos) {
        for (const auto& a : i.ipv4)
          take = take || in_cidr(a, s);
      } else {
        take = take || i.name.rfind(s, 0) == 0;
      }
    }
    if (take && !excluded) out.push_back(i);
  }
  return out;
}

bool rdma_devices_present() {
  std::error_code ec;
  std::filesystem::directory_iterator it("/sys/class/infiniband", ec);
  return !ec && it != std::filesystem::directory_iterator();
}

nlohmann::json to_json(const net_interface& i) {
  nlohmann::json j = {{"name", i.name}, {"ipv4", i.ipv4}};
  if (i.speed_mbps > 0) j["speed_mbps"] = i.speed_mbps;
  if (!i.driver.empty()) j["driver"] = i.driver;
  return j;
}

std::string speed_peak_basis(const net_interface& i) {
  const std::string driver = i.driver.empty() ? "its driver" : "the " + i.driver + " driver";
  std::string basis = i.name + " " + std::to_string(i.speed_mbps) + " Mb/s per direction as " +
                      driver + " claims it (sysfs speed, not a measured uplink)";
  if (i.driver == "vmxnet3") basis += "; vmxnet3 reports 10000 Mb/s whatever the host's uplink is";
  return basis + ": the ceiling of a collective's busbw if the claim is true";
}

}  // namespace gpubench::transports::net

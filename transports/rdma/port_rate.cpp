#include "transports/rdma/port_rate.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>

#include <fmt/format.h>

namespace gpubench::transports::rdma {

std::optional<lane_speed> speed_from_code(std::uint8_t active_speed) {
  // Data rates: SDR..QDR use 8b/10b, FDR10 and faster 64b/66b; HDR and NDR are PAM4 lanes
  // whose usable rate is the nominal 50/100 Gb/s.
  switch (active_speed) {
    case 1:
      return lane_speed{"SDR", 2.5, 2.0};
    case 2:
      return lane_speed{"DDR", 5.0, 4.0};
    case 4:
      return lane_speed{"QDR", 10.0, 8.0};
    case 8:
      return lane_speed{"FDR10", 10.3125, 10.0};
    case 16:
      return lane_speed{"FDR", 14.0625, 14.0625 * 64.0 / 66.0};
    case 32:
      return lane_speed{"EDR", 25.78125, 25.0};
    case 64:
      return lane_speed{"HDR", 53.125, 50.0};
    case 128:
      return lane_speed{"NDR", 106.25, 100.0};
    default:
      return std::nullopt;
  }
}

std::optional<int> lanes_from_code(std::uint8_t active_width) {
  switch (active_width) {
    case 1:
      return 1;
    case 2:
      return 4;
    case 4:
      return 8;
    case 8:
      return 12;
    case 16:
      return 2;
    default:
      return std::nullopt;
  }
}

std::optional<line_rate> rate_from_codes(std::uint8_t active_speed, std::uint8_t active_width) {
  const auto speed = speed_from_code(active_speed);
  const auto lanes = lanes_from_code(active_width);
  if (!speed || !lanes) return std::nullopt;
  line_rate r;
  r.gbit_per_s = speed->data_gbps * *lanes;
  r.gbyte_per_s = r.gbit_per_s / 8.0;
  r.basis = fmt::format("{}X {}: {} lane{} x {:.4g} Gb/s = {:.4g} Gb/s, {:.4g} GB/s per direction",
                        *lanes, speed->name, *lanes, *lanes == 1 ? "" : "s", speed->data_gbps,
                        r.gbit_per_s, r.gbyte_per_s);
  return r;
}

std::optional<line_rate> rate_from_sysfs(const std::string& text) {
  static const std::regex re(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*Gb/sec(?:\s*\((.*)\))?)");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nullopt;
  const double gbps = std::stod(m[1].str());
  if (!(gbps > 0)) return std::nullopt;
  line_rate r;
  r.gbit_per_s = gbps;
  r.gbyte_per_s = gbps / 8.0;
  const std::string label = m[2].matched ? " (" + m[2].str() + ")" : "";
  r.basis = fmt::format("port rate {:.4g} Gb/s{} from sysfs, {:.4g} GB/s per direction", gbps,
                        label, r.gbyte_per_s);
  return r;
}

line_rate for_directions(const line_rate& one_way, bool both_directions) {
  if (!both_directions) return one_way;
  line_rate r = one_way;
  r.gbit_per_s = 2 * one_way.gbit_per_s;
  r.gbyte_per_s = 2 * one_way.gbyte_per_s;
  r.basis = fmt::format("{}; both directions counted: {:.4g} GB/s", one_way.basis, r.gbyte_per_s);
  return r;
}

std::optional<line_rate> port_line_rate(bool ethernet, std::uint8_t active_speed,
                                        std::uint8_t active_width, const std::string& sysfs_rate,
                                        const std::optional<netdev_link>& netdev) {
  if (ethernet && netdev && netdev->bond_port_speed_mbps && *netdev->bond_port_speed_mbps > 0) {
    line_rate r;
    r.gbit_per_s = static_cast<double>(*netdev->bond_port_speed_mbps) / 1000.0;
    r.gbyte_per_s = r.gbit_per_s / 8.0;
    std::string ports;
    for (const auto& p : netdev->bond_ports)
      ports += (ports.empty() ? "" : ", ") + p;
    r.basis = fmt::format(
        "one port of the bond {} ({}{}): {} {} Mb/s, as one RC queue pair runs on one port, "
        "{:.4g} GB/s per direction",
        netdev->name, ports,
        netdev->speed_mbps ? fmt::format("; {} Mb/s all together", *netdev->speed_mbps) : "",
        netdev->bond_port, *netdev->bond_port_speed_mbps, r.gbyte_per_s);
    return r;
  }
  if (ethernet && netdev && netdev->speed_mbps && *netdev->speed_mbps > 0) {
    line_rate r;
    r.gbit_per_s = static_cast<double>(*netdev->speed_mbps) / 1000.0;
    r.gbyte_per_s = r.gbit_per_s / 8.0;
    const std::string driver =
        netdev->driver.empty() ? "its driver" : "the " + netdev->driver + " driver";
    r.basis = fmt::format(
        "{} {} Mb/s as {} claims it (sysfs speed of the port's netdev, not a measured "
        "uplink), {:.4g} GB/s per direction",
        netdev->name, *netdev->speed_mbps, driver, r.gbyte_per_s);
    if (netdev->driver == "vmxnet3") r.basis += "; vmxnet3 reports 10000 Mb/s whatever the uplink";
    return r;
  }
  auto r = rate_from_codes(active_speed, active_width);
  if (!r) r = rate_from_sysfs(sysfs_rate);
  if (r && ethernet)
    r->basis =
        "the port's InfiniBand speed and width codes, which the driver maps from the "
        "Ethernet speed (" +
        (netdev ? netdev->name + " gives no speed" : std::string("no netdev found")) +
        "): " + r->basis;
  return r;
}

std::optional<int> mtu_bytes(int code) {
  if (code < 1 || code > 5) return std::nullopt;
  return 128 << code;
}

std::optional<int> mtu_code(int bytes) {
  for (int c = 1; c <= 5; ++c)
    if ((128 << c) == bytes) return c;
  return std::nullopt;
}

int negotiate_mtu(int own_code, int peer_code) {
  return std::min(own_code, peer_code);
}

}  // namespace gpubench::transports::rdma

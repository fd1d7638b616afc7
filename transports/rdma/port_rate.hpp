// A port's line rate from its active speed and width (the encodings of ibv_port_attr), and
// its MTU codes: the pure arithmetic behind "% of line rate" and path MTU negotiation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpubench::transports::rdma {

struct lane_speed {
  std::string name;        // "EDR"
  double signal_gbps = 0;  // per lane, as signalled
  double data_gbps = 0;    // per lane, after line encoding (8b/10b or 64b/66b)
};

// ibv_port_attr::active_speed (1 SDR, 2 DDR, 4 QDR, 8 FDR10, 16 FDR, 32 EDR, 64 HDR,
// 128 NDR); nullopt for a code this table does not know.
std::optional<lane_speed> speed_from_code(std::uint8_t active_speed);
// ibv_port_attr::active_width (1 1X, 2 4X, 4 8X, 8 12X, 16 2X) to lanes; nullopt if unknown.
std::optional<int> lanes_from_code(std::uint8_t active_width);

struct line_rate {
  double gbit_per_s = 0;  // data rate, one direction
  double gbyte_per_s = 0;
  std::string basis;  // "4X EDR: 4 lanes x 25 Gb/s = 100 Gb/s, 12.5 GB/s per direction"
};

// The peak of a case that moves data both ways at once: twice one direction's rate, as a
// full-duplex port carries it; the basis says so. `one_way` is returned as is otherwise.
line_rate for_directions(const line_rate& one_way, bool both_directions);

std::optional<line_rate> rate_from_codes(std::uint8_t active_speed, std::uint8_t active_width);

// Parses sysfs ports/N/rate ("100 Gb/sec (4X EDR)", "25 Gb/sec (1X EDR)"): the kernel's own
// figure, used when the codes are unknown (PVRDMA and newer speeds).
std::optional<line_rate> rate_from_sysfs(const std::string& text);

// An Ethernet interface's link as sysfs states it.
struct netdev_link {
  std::string name;                     // "ens6f0np0"
  std::optional<long long> speed_mbps;  // /sys/class/net/<name>/speed; absent when unknown
  std::string driver;                   // "mlx5_core"; empty when there is no device link
  // A bond (RoCE LAG: mlx5_bond_0 on bond0, whose speed is the sum of its ports'): its ports,
  // and the first of them with a known speed, which stands for the one a queue pair runs on.
  std::vector<std::string> bond_ports;
  std::string bond_port;
  std::optional<long long> bond_port_speed_mbps;
};

// The line rate of a port. InfiniBand: the active speed and width codes, else the kernel's
// sysfs rate. Ethernet (RoCE): the speed of the port's netdev, as its driver claims it; the
// codes there are the driver's mapping of an Ethernet speed onto InfiniBand lanes (40 GbE is
// "4X QDR", whose 8b/10b data rate is 32 Gb/s; soft-RoCE below 1 GbE says "1X SDR") and are
// used, said so, only when the netdev gives no speed. A bonded netdev (RoCE LAG) gives the
// speed of one of its ports, said so: one RC queue pair runs on one port, never on the sum.
std::optional<line_rate> port_line_rate(bool ethernet, std::uint8_t active_speed,
                                        std::uint8_t active_width, const std::string& sysfs_rate,
                                        const std::optional<netdev_link>& netdev);

// enum ibv_mtu codes 1..5 <-> 256..4096 bytes.
std::optional<int> mtu_bytes(int code);
std::optional<int> mtu_code(int bytes);
// The path MTU both sides can use: the smaller of the two active MTUs (codes).
int negotiate_mtu(int own_code, int peer_code);

}  // namespace gpubench::transports::rdma

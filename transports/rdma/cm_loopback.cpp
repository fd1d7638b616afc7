#include "transports/rdma/cm_loopback.hpp"

#include <arpa/inet.h>

#include <fmt/format.h>

namespace gpubench::transports::rdma {

bool is_loopback_address(const std::string& numeric) {
  in_addr v4{};
  if (inet_pton(AF_INET, numeric.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, numeric.c_str(), &v6) != 1) return false;
  gid_bytes g{};
  std::copy(std::begin(v6.s6_addr), std::end(v6.s6_addr), g.begin());
  if (is_ipv4_mapped(g)) return g[12] == 127;
  gid_bytes one{};
  one[15] = 1;
  return g == one;
}

std::optional<std::string> loopback_cm_address(const std::vector<gid_entry>& gids) {
  const auto choice = select_gid(gids, gid_family::ipv4);
  if (choice.index < 0) return std::nullopt;
  for (const auto& e : gids) {
    if (e.index != choice.index) continue;
    if (e.type == gid_type::ib || is_link_local(e.gid)) return std::nullopt;
    if (is_ipv4_mapped(e.gid))
      return fmt::format("{}.{}.{}.{}", e.gid[12], e.gid[13], e.gid[14], e.gid[15]);
    return format_gid(e.gid);
  }
  return std::nullopt;
}

}  // namespace gpubench::transports::rdma

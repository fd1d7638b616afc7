#include "transports/rdma/gid_select.hpp"

#include <arpa/inet.h>

#include <cstring>

#include <fmt/format.h>

namespace gpubench::transports::rdma {

bool is_zero(const gid_bytes& g) {
  for (auto b : g)
    if (b != 0) return false;
  return true;
}

bool is_ipv4_mapped(const gid_bytes& g) {
  for (int i = 0; i < 10; ++i)
    if (g[static_cast<std::size_t>(i)] != 0) return false;
  return g[10] == 0xff && g[11] == 0xff;
}

bool is_link_local(const gid_bytes& g) {
  return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

gid_family family_of(const gid_bytes& g) {
  return is_ipv4_mapped(g) ? gid_family::ipv4 : gid_family::ipv6;
}

std::string format_gid(const gid_bytes& g) {
  if (is_ipv4_mapped(g)) return fmt::format("::ffff:{}.{}.{}.{}", g[12], g[13], g[14], g[15]);
  std::string out;
  for (std::size_t i = 0; i < g.size(); i += 2)
    out += fmt::format("{}{:02x}{:02x}", i ? ":" : "", g[i], g[i + 1]);
  return out;
}

std::string to_string(gid_type t) {
  switch (t) {
    case gid_type::ib:
      return "IB";
    case gid_type::roce_v1:
      return "RoCE v1";
    case gid_type::roce_v2:
      return "RoCE v2";
  }
  return "unknown";
}

gid_choice select_gid(const std::vector<gid_entry>& table, gid_family wanted) {
  int best = -1;
  int best_score = -1;
  for (const auto& e : table) {
    if (is_zero(e.gid)) continue;
    const int score = (family_of(e.gid) == wanted ? 4 : 0) + (e.type == gid_type::roce_v2 ? 2 : 0) +
                      (is_link_local(e.gid) ? 0 : 1);
    if (score > best_score || (score == best_score && e.index < best)) {
      best = e.index;
      best_score = score;
    }
  }
  if (best < 0)
    return {-1,
            "the port's GID table has no non-zero entry (no IP address on its "
            "network interface?)"};
  return {best, ""};
}

std::string gid_mismatch(const endpoint_info& local, const endpoint_info& peer) {
  if (local.has_gid != peer.has_gid)
    return "one side uses a GID (--gid-index) and the other does not";
  if (!local.has_gid) return {};
  if (local.gid_kind != peer.gid_kind)
    return "GID types differ: local " + format_gid(local.gid) + " is " + to_string(local.gid_kind) +
           ", the peer's " + format_gid(peer.gid) + " is " + to_string(peer.gid_kind) +
           ": they cannot connect (choose GIDs of one type with --gid-index and "
           "--peer-gid-index)";
  if (family_of(local.gid) != family_of(peer.gid))
    return "GID address families differ: local " + format_gid(local.gid) + ", peer " +
           format_gid(peer.gid) + " (choose --gid-index on both)";
  return {};
}

std::optional<gid_bytes> gid_of_address(const std::string& address) {
  gid_bytes g{};
  in_addr v4{};
  if (inet_pton(AF_INET, address.c_str(), &v4) == 1) {
    g[10] = g[11] = 0xff;
    std::memcpy(g.data() + 12, &v4, 4);  // network byte order, as the GID holds it
    return g;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
    std::memcpy(g.data(), &v6, 16);
    return g;
  }
  return std::nullopt;
}

int index_holding(const std::vector<gid_entry>& table, const gid_bytes& address) {
  int best = -1;
  bool best_v2 = false;
  for (const auto& e : table) {
    if (e.gid != address || is_zero(e.gid)) continue;
    const bool v2 = e.type == gid_type::roce_v2;
    if (best < 0 || (v2 && !best_v2) || (v2 == best_v2 && e.index < best)) {
      best = e.index;
      best_v2 = v2;
    }
  }
  return best;
}

gid_choice check_gid_index(const std::vector<gid_entry>& table, int index) {
  for (const auto& e : table) {
    if (e.index != index) continue;
    if (is_zero(e.gid)) return {-1, fmt::format("--gid-index {}: that GID entry is empty", index)};
    return {index, ""};
  }
  return {-1,
          fmt::format("--gid-index {}: the port's GID table has {} entries", index, table.size())};
}

}  // namespace gpubench::transports::rdma

// Choosing the GID a RoCE queue pair addresses its peer with, from a port's GID table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "transports/rdma/exchange.hpp"

namespace gpubench::transports::rdma {

enum class gid_family : std::uint8_t { ipv4, ipv6 };

struct gid_entry {
  int index = 0;
  gid_bytes gid{};
  gid_type type = gid_type::ib;
};

bool is_zero(const gid_bytes& g);
// ::ffff:a.b.c.d, the form RoCE gives an interface's IPv4 address.
bool is_ipv4_mapped(const gid_bytes& g);
bool is_link_local(const gid_bytes& g);  // fe80::/10
gid_family family_of(const gid_bytes& g);
// "fe80::...:1" style text, for contexts and errors.
std::string format_gid(const gid_bytes& g);
std::string to_string(gid_type t);

struct gid_choice {
  int index = -1;
  std::string why;  // empty when index is valid; otherwise what was missing
};

// Without an explicit index (perftest's scoring, made explicit): skip zero GIDs, then prefer
// the wanted address family, then RoCE v2 over v1, then a global over a link-local address;
// ties go to the lowest index. `wanted` defaults to IPv4, the usual RoCE v2 deployment.
gid_choice select_gid(const std::vector<gid_entry>& table, gid_family wanted = gid_family::ipv4);

// Why two endpoints' GIDs cannot connect (RoCE v1 against v2, or a GID on one side only), or
// empty when they can. Names both types and what to do.
std::string gid_mismatch(const endpoint_info& local, const endpoint_info& peer);

// The GID form of a numeric IP address ("198.18.0.1" -> ::ffff:198.18.0.1, or an IPv6
// address as is); nothing when the text is not one.
std::optional<gid_bytes> gid_of_address(const std::string& address);
// The entry whose GID is `address` (RoCE GIDs are the interface's IP addresses), RoCE v2
// before v1, then the lowest index; -1 when none holds it.
int index_holding(const std::vector<gid_entry>& table, const gid_bytes& address);

// With --gid-index: the entry must exist and not be zero.
gid_choice check_gid_index(const std::vector<gid_entry>& table, int index);

}  // namespace gpubench::transports::rdma

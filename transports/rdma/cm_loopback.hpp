// The address rdma_cm connects to in loopback. The control connection of a loopback case runs
// over 127.0.0.1 (or ::1), an address that no RDMA device holds: rdma_resolve_addr binds it to
// some device, but rdma_resolve_route then fails, as the loopback interface has no RoCE GID.
// perftest's -R is given the device's own address by hand; gpubench takes it from the port's
// GID table (the address of the netdev behind the GID select_gid picks).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "transports/rdma/gid_select.hpp"

namespace gpubench::transports::rdma {

// 127.0.0.0/8, ::1 and ::ffff:127.x.y.z (numeric addresses only).
bool is_loopback_address(const std::string& numeric);

// The numeric address rdma_cm should resolve to reach `gids`' port from the same host: the
// IPv4 address (dotted) of an IPv4-mapped GID, else a global IPv6 GID, as select_gid orders
// them; nothing when the port has no IP-based GID (InfiniBand: no netdev to route over).
std::optional<std::string> loopback_cm_address(const std::vector<gid_entry>& gids);

}  // namespace gpubench::transports::rdma

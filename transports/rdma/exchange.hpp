// The out-of-band message of an RDMA case: each side's endpoint (QPN, PSN, LID/GID, MTU,
// outstanding reads, rkey, buffer) in a fixed big-endian binary form, carried as a blob over
// the control channel while the endpoints are built.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "transports/rdma/wire.hpp"

namespace gpubench::transports::rdma {

inline constexpr std::uint32_t wire_magic = 0x47425244;  // "GBRD"
// 2: the endpoint message carries the GID type.
inline constexpr std::uint8_t wire_version = 2;
// No message of this protocol is longer; anything longer is refused before decoding.
inline constexpr std::size_t max_message_bytes = 1024;
// Largest message one work request may carry (the verbs limit is 2^31 bytes).
inline constexpr std::uint64_t max_transfer_bytes = 1ull << 30;

enum class rdma_op : std::uint8_t { send = 1, write = 2, read = 3 };
enum class memory_kind : std::uint8_t { host = 1, cuda = 2 };
enum class test_kind : std::uint8_t { latency = 1, bandwidth = 2 };
enum class link_layer : std::uint8_t { infiniband = 1, ethernet = 2 };
// The type of a GID table entry: an InfiniBand GID, or RoCE v1 / v2 (which cannot talk to
// each other: a mismatch ends in retry-exceeded, so it is exchanged and refused by name).
enum class gid_type : std::uint8_t { ib = 0, roce_v1 = 1, roce_v2 = 2 };

std::string to_string(rdma_op op);
std::string to_string(memory_kind m);
std::string to_string(link_layer l);

using gid_bytes = std::array<std::uint8_t, 16>;

// One side's queue pair and buffer, as the other side needs them to connect and to address
// remote reads and writes.
struct endpoint_info {
  std::uint16_t lid = 0;
  std::uint32_t qpn = 0;  // 24 bits
  std::uint32_t psn = 0;  // 24 bits
  std::uint32_t rkey = 0;
  std::uint64_t addr = 0;    // virtual address of the buffer the peer may read/write
  std::uint64_t length = 0;  // its length in bytes
  bool has_gid = false;
  gid_bytes gid{};
  gid_type gid_kind = gid_type::ib;  // the type of `gid` (meaningful with has_gid)
  std::uint8_t mtu = 0;              // enum ibv_mtu: 1 (256 B) .. 5 (4096 B)
  std::uint8_t out_reads = 0;        // outstanding RDMA reads this side accepts and issues
  link_layer link = link_layer::infiniband;
};

std::vector<std::byte> encode(const endpoint_info& e);

// Who addresses the peer's queue pair. exchanged: this message does (its LID or GID goes into
// the address vector), so a RoCE endpoint must carry a GID and an InfiniBand one a GID or a
// unicast LID. rdma_cm: rdma_cm resolved the address and the route and connected the QPs; the
// message only carries the buffer (rkey, address, length), and a GID is not demanded.
enum class peer_addressing : std::uint8_t { exchanged, rdma_cm };

// Refuses (wire_error) a message that is too long, truncated, has trailing bytes, a wrong
// magic, version or type, or a field outside its range, before any value is used.
endpoint_info decode_endpoint_info(std::span<const std::byte> in,
                                   peer_addressing addressing = peer_addressing::exchanged);

}  // namespace gpubench::transports::rdma

// The out-of-band messages of an RDMA case: the session request, each side's endpoint
// (QPN, PSN, LID/GID, MTU, rkey, buffer) and the per-point commands, in a fixed binary form.
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
inline constexpr std::uint8_t wire_version = 1;
// No message of this protocol is longer; anything longer is refused before decoding.
inline constexpr std::size_t max_message_bytes = 1024;
// Largest message one work request may carry (the verbs limit is 2^31 bytes).
inline constexpr std::uint64_t max_transfer_bytes = 1ull << 30;

enum class rdma_op : std::uint8_t { send = 1, write = 2, read = 3 };
enum class memory_kind : std::uint8_t { host = 1, cuda = 2 };
enum class test_kind : std::uint8_t { latency = 1, bandwidth = 2 };
enum class link_layer : std::uint8_t { infiniband = 1, ethernet = 2 };

std::string to_string(rdma_op op);
std::string to_string(memory_kind m);
std::string to_string(link_layer l);

using gid_bytes = std::array<std::uint8_t, 16>;

// What the active side asks of the passive side for one case.
struct session_request {
  test_kind test = test_kind::latency;
  rdma_op op = rdma_op::send;
  memory_kind memory = memory_kind::host;
  bool bidirectional = false;
  std::uint64_t max_size = 0;  // largest message of the case: both buffers are this big
  std::uint32_t tx_depth = 0;
  std::uint32_t rx_depth = 0;
};

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
  std::uint8_t mtu = 0;        // enum ibv_mtu: 1 (256 B) .. 5 (4096 B)
  std::uint8_t out_reads = 0;  // outstanding RDMA reads this side accepts and issues
  link_layer link = link_layer::infiniband;
};

// Per-point commands of the active side and the passive side's answers.
enum class command_type : std::uint8_t {
  begin_point = 3,  // size follows; the passive side prepares and answers `ready`
  ready = 4,
  stop = 5,  // the point is over; the passive side answers `stopped` with its CPU time
  stopped = 6,
  failed = 7,  // the passive side could not go on; text says why, size 1: a missing requirement
  end_session = 8,
};

struct command {
  command_type type = command_type::ready;
  std::uint64_t size = 0;  // begin_point
  double cpu_seconds = 0;  // stopped: the passive side's CPU time during the point
  std::string text;        // failed
};

std::vector<std::byte> encode(const session_request& r);
std::vector<std::byte> encode(const endpoint_info& e);
std::vector<std::byte> encode(const command& c);

// True when `in` is a well-formed header of a command (a `failed` answer may arrive where
// another message was expected).
bool is_command(std::span<const std::byte> in);

// Each decoder refuses (wire_error) a message that is too long, truncated, has trailing
// bytes, a wrong magic, version or type, or a field outside its range.
session_request decode_session_request(std::span<const std::byte> in);
endpoint_info decode_endpoint_info(std::span<const std::byte> in);
command decode_command(std::span<const std::byte> in);

}  // namespace gpubench::transports::rdma

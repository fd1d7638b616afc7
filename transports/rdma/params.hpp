// The knobs of an RDMA case and the pure choices made from them and the device's limits:
// which operations, memory, depths, inline size, signalling interval and iterations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/run_context.hpp"
#include "transports/rdma/exchange.hpp"

namespace gpubench::transports::rdma {

// perftest's defaults: tx depth 128, a completion every 100 WRs.
inline constexpr std::uint32_t default_tx_depth = 128;
inline constexpr std::uint32_t default_cq_mod = 100;
// perftest's largest inline sizes that do not slow small messages down on ConnectX.
inline constexpr std::uint32_t default_inline_write = 220;
inline constexpr std::uint32_t default_inline_send = 236;
// P_Key indices a port may have (the table length is a 16-bit field).
inline constexpr int max_pkey_index = 65535;
// The RNR NAK timer a responder advertises (perftest's 12: 0.64 ms before the sender retries);
// the kernel CM's default, 0, means 655 ms.
inline constexpr std::uint8_t default_min_rnr_timer = 12;
// Responder resources asked for; clamped to the device and then to the peer.
inline constexpr std::uint32_t default_out_reads = 16;
// perftest's bandwidth iterations: work requests in one bandwidth sample.
inline constexpr std::uint32_t default_bw_iterations = 5000;
// Receives kept posted for send bandwidth: at least this many (RNR NAKs cost 0.64 ms each at
// min_rnr_timer 12, so the receive queue must never run dry while the sender's window is full).
inline constexpr std::uint32_t min_bw_recv_depth = 512;
// Send-queue slots beyond the window, for the zero-byte messages that start and end the
// peer's half of a bidirectional sample.
inline constexpr std::uint32_t sync_send_slots = 1;

// How a side waits for completions: busy-polling the CQ (perftest's default), or sleeping on
// a completion channel until the CQ signals one (perftest -e).
enum class completion_mode { poll, event };
std::string to_string(completion_mode m);
completion_mode parse_completion(const std::string& text);  // "poll" | "event", else usage_error

// Which ways a bandwidth case moves data: the operation's own direction (perftest's
// default), both at once (perftest -b), or one case of each.
enum class bw_directions { uni, bidir, both };

// What the user asked for, validated (usage_error names the option).
struct rdma_options {
  std::vector<rdma_op> ops{rdma_op::send, rdma_op::write, rdma_op::read};
  memory_kind memory = memory_kind::host;
  std::optional<std::string> device;  // --rdma-device, default: the first active port
  int port = 1;                       // --rdma-port
  std::optional<int> gid_index;       // --gid-index
  int pkey_index = 0;                 // --pkey-index (perftest --pkey_index)
  // What the --peer server should use (its own defaults when unset).
  std::optional<std::string> peer_device;  // --peer-rdma-device
  int peer_port = 1;                       // --peer-rdma-port
  std::optional<int> peer_gid_index;       // --peer-gid-index
  int peer_pkey_index = 0;                 // --peer-pkey-index
  std::uint32_t tx_depth = default_tx_depth;
  std::uint32_t cq_mod = default_cq_mod;
  std::optional<std::uint32_t> inline_size;  // --rdma-inline; default per test and operation
  std::uint32_t iterations = default_bw_iterations;    // --rdma-iters
  bw_directions directions = bw_directions::both;      // --rdma-direction
  int gpu = 0;                                         // --rdma-gpu (with --rdma-memory cuda)
  int peer_gpu = 0;                                    // --peer-rdma-gpu
  bool rdma_cm = false;                                // --rdma-cm on|off
  completion_mode completion = completion_mode::poll;  // --rdma-completion
  std::uint8_t tclass = 0;                             // --rdma-tclass (perftest -T)
  std::uint8_t sl = 0;                                 // --rdma-sl (perftest -S)
  bool relaxed_ordering = true;                        // --rdma-relaxed-ordering on|off
};

// Reads --rdma-op (send,write,read | all), --rdma-memory, --rdma-device, --rdma-port,
// --gid-index, --pkey-index, their --peer-* forms, --tx-depth, --cq-mod, --rdma-inline,
// --rdma-iters, --rdma-direction, --rdma-gpu / --peer-rdma-gpu, --rdma-cm, --rdma-completion,
// --rdma-tclass, --rdma-sl and --rdma-relaxed-ordering.
rdma_options parse_rdma_options(const core::run_context& ctx);
std::vector<rdma_op> parse_ops(const std::string& text);
memory_kind parse_memory(const std::string& text);
// --rdma-relaxed-ordering: "on" | "off", else usage_error.
bool parse_relaxed_ordering(const std::string& text);

// Empty when `index` names a valid P_Key of a port whose table has `table_len` entries and
// whose entry at `index` reads `pkey` (host byte order); else why not, naming --pkey-index.
// An entry of 0 (or 0x8000, the invalid key with the membership bit) is an empty slot: a QP
// on it would never connect. Index 0 on a port without a table (iWARP) is fine.
std::string pkey_index_problem(int index, int table_len, std::uint16_t pkey);
// "0xffff": a P_Key as the context and the errors write it.
std::string pkey_text(std::uint16_t pkey);

// The inline size a latency test asks for by default on a provider, as perftest keeps them:
// 220 (write) and 236 (send) on ConnectX (mlx4, mlx5) and Chelsio (cxgb4); the limits of
// providers that hold less: bnxt_re 96, erdma 96, qedr 128, efa 32, hns 32, irdma 101 (the
// older i40iw 48); 0 on providers perftest does not know (soft-RoCE, soft-iWARP, PVRDMA, ...).
// `provider` as provider_from() names it; `vendor_id` (ibv_device_attr) decides when the
// provider name is not one of these. 0 for reads.
std::uint32_t provider_inline_default(rdma_op op, const std::string& provider,
                                      const std::string& device_name, std::uint32_t vendor_id);
// The inline size to ask the QP for. Never for reads (nothing is sent) nor GPU memory (the
// CPU would have to read the payload); bandwidth tests default to none, like perftest;
// latency tests to `provider_default` (provider_inline_default).
std::uint32_t wanted_inline(test_kind test, rdma_op op, memory_kind memory,
                            std::optional<std::uint32_t> requested, std::uint32_t provider_default);

// The directions of a bandwidth case of `op`, as the result's "direction" param (seen from the
// client, like TCP's): send and write move data to the peer, read pulls it from the peer.
std::vector<std::string> bandwidth_directions(rdma_op op, bw_directions d);
// Whether a work request of `size` bytes is posted with IBV_SEND_INLINE: never for reads,
// never from memory the CPU cannot read (GPU memory: the provider would memcpy a device
// pointer), and only up to the smaller of what was asked for and what the provider granted
// (providers may grant more than asked; perftest inlines only up to what was asked).
bool use_inline(rdma_op op, std::uint64_t size, std::uint32_t wanted, std::uint32_t granted,
                bool host_memory);

// The one-way direction of `op`: "to_peer" (send, write) or "from_peer" (read).
std::string uni_direction(rdma_op op);

// Depth of the send queue: for latency (ping-pong) room for the unsignalled posts between
// two signalled ones (latency_signal_interval) and control slots; else the requested window
// clamped to the device's max_qp_wr less the sync slots.
std::uint32_t send_depth(test_kind test, std::uint32_t requested, std::uint32_t device_max_wr);
// Ping-pong signals one post in this many (perftest's latency tests signal one in cq_mod,
// default 100): a send or write completes only when the peer acknowledges it, and RoCE
// devices may coalesce or delay that ACK (soft-RoCE asks for one every 128 packets), while
// the round trip is timed by the reply. The signalled post is reaped just before the next
// signalled one, so up to 2 x the interval are outstanding: it fits `send_queue_depth`.
std::uint32_t latency_signal_interval(std::uint32_t send_queue_depth);
// Receives kept posted: max(512, 2 x the send window) for send bandwidth, a few for
// ping-pong (one per outstanding message plus control), clamped to the device.
std::uint32_t recv_depth(test_kind test, rdma_op op, std::uint32_t tx_depth,
                         std::uint32_t device_max_wr);
// The entries to ask a queue (CQ, send or receive queue) for, so that it holds `want`: the
// device's maximum bounds it. vmw_pvrdma rounds every queue size up to a power of two, so for
// it the size is rounded first and then clamped to the largest power of two within the
// maximum (clamping first lets the rounding push it over: ENOMEM/EINVAL at create time).
// The depth used is min(want, the result).
std::uint32_t queue_entries(std::uint32_t want, std::uint32_t device_max, bool pow2_provider);
// Providers that round queue sizes up to a power of two.
bool rounds_queues_to_pow2(const std::string& provider);

// Send-bandwidth receiver: receives still to drain after the stop, so that completions late
// in arriving are counted in their own point. Every sample moves `per_sample` messages and
// every one was acknowledged before the stop, so the total is a multiple of it.
std::uint64_t receives_outstanding(std::uint64_t received, std::uint64_t per_sample);

// perftest's address cycling for small messages: a bandwidth work request of up to half a
// page takes its local and remote buffers the size rounded up to a cache line (64 B) further
// on than the one before, back at the start once a page is used, so consecutive messages do
// not hit the same cache lines; larger ones always start at 0. `index` counts the work
// requests; `space` is what both sides' buffers hold (the page is never more than that).
std::uint64_t cycle_offset(std::uint64_t size, std::uint64_t index, std::uint64_t space);

// One signalled WR in every `cq_mod`, never more than the window (else the send queue fills
// before any completion frees it).
std::uint32_t signal_interval(std::uint32_t cq_mod, std::uint32_t tx_depth);
// Outstanding reads: min(requested, device max_qp_rd_atom), then min with the peer's.
std::uint8_t outstanding_reads(std::uint32_t requested, int device_max, std::uint8_t peer);

}  // namespace gpubench::transports::rdma

#include "transports/rdma/params.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <sstream>

#include "core/errors.hpp"
#include "transports/rdma/cm_protocol.hpp"

namespace gpubench::transports::rdma {

namespace {

// Ping-pong: one signalled post in this many at most (perftest's cq_mod), and the slots beyond
// 2 x that for the control sends of the point protocol.
constexpr std::uint32_t latency_signal_every = default_cq_mod;
constexpr std::uint32_t latency_spare_slots = 4;

std::uint32_t bounded(const core::run_context& ctx, const char* name, long long lo, long long hi,
                      std::uint32_t fallback) {
  const auto v = ctx.option_int(name);
  if (!v) return fallback;
  if (*v < lo || *v > hi)
    throw core::usage_error("--" + std::string(name) + " " + std::to_string(*v) + " is outside " +
                            std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<std::uint32_t>(*v);
}

}  // namespace

std::vector<rdma_op> parse_ops(const std::string& text) {
  if (text == "all") return {rdma_op::send, rdma_op::write, rdma_op::read};
  if (!text.empty() && text.back() == ',')
    throw core::usage_error("--rdma-op: '" + text + "' ends with a comma");
  std::vector<rdma_op> out;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    rdma_op op;
    if (item == "send")
      op = rdma_op::send;
    else if (item == "write")
      op = rdma_op::write;
    else if (item == "read")
      op = rdma_op::read;
    else
      throw core::usage_error("--rdma-op: '" + item + "' is not send, write, read or all");
    if (std::find(out.begin(), out.end(), op) == out.end()) out.push_back(op);
  }
  if (out.empty()) throw core::usage_error("--rdma-op: no operation given");
  return out;
}

memory_kind parse_memory(const std::string& text) {
  if (text == "host") return memory_kind::host;
  if (text == "cuda") return memory_kind::cuda;
  throw core::usage_error("--rdma-memory: '" + text + "' is not host or cuda");
}

rdma_options parse_rdma_options(const core::run_context& ctx) {
  rdma_options o;
  if (auto v = ctx.option("rdma-op")) o.ops = parse_ops(*v);
  if (auto v = ctx.option("rdma-memory")) o.memory = parse_memory(*v);
  o.device = ctx.option("rdma-device");
  o.port = static_cast<int>(bounded(ctx, "rdma-port", 1, 255, 1));
  if (ctx.option("gid-index"))
    o.gid_index = static_cast<int>(bounded(ctx, "gid-index", 0, 65535, 0));
  o.pkey_index = static_cast<int>(bounded(ctx, "pkey-index", 0, max_pkey_index, 0));
  o.peer_pkey_index = static_cast<int>(bounded(ctx, "peer-pkey-index", 0, max_pkey_index, 0));
  o.peer_device = ctx.option("peer-rdma-device");
  o.peer_port = static_cast<int>(bounded(ctx, "peer-rdma-port", 1, 255, 1));
  if (ctx.option("peer-gid-index"))
    o.peer_gid_index = static_cast<int>(bounded(ctx, "peer-gid-index", 0, 65535, 0));
  o.tx_depth = bounded(ctx, "tx-depth", 1, 16384, default_tx_depth);
  o.cq_mod = bounded(ctx, "cq-mod", 1, 16384, default_cq_mod);
  if (ctx.option("rdma-inline")) o.inline_size = bounded(ctx, "rdma-inline", 0, 4096, 0);
  o.iterations = bounded(ctx, "rdma-iters", 1, 1'000'000, default_bw_iterations);
  if (auto v = ctx.option("rdma-direction")) {
    if (*v == "uni")
      o.directions = bw_directions::uni;
    else if (*v == "bidir")
      o.directions = bw_directions::bidir;
    else if (*v == "both")
      o.directions = bw_directions::both;
    else
      throw core::usage_error("--rdma-direction: '" + *v + "' is not uni, bidir or both");
  }
  o.gpu = static_cast<int>(bounded(ctx, "rdma-gpu", 0, 1023, 0));
  o.peer_gpu = static_cast<int>(bounded(ctx, "peer-rdma-gpu", 0, 1023, 0));
  if (auto v = ctx.option("rdma-cm")) o.rdma_cm = parse_rdma_cm(*v);
  if (auto v = ctx.option("rdma-completion")) o.completion = parse_completion(*v);
  o.tclass = static_cast<std::uint8_t>(bounded(ctx, "rdma-tclass", 0, 255, 0));
  o.sl = static_cast<std::uint8_t>(bounded(ctx, "rdma-sl", 0, 15, 0));
  if (auto v = ctx.option("rdma-relaxed-ordering")) o.relaxed_ordering = parse_relaxed_ordering(*v);
  // With rdma_cm the type of service (--rdma-tclass) is set on the id before the route is
  // resolved; the service level comes from the path rdma_cm resolves (or the ToS it maps).
  if (o.rdma_cm && o.sl != 0)
    throw core::usage_error(
        "--rdma-sl applies to the address handle of --rdma-cm off; with --rdma-cm on rdma_cm "
        "takes the service level from the path it resolves (use --rdma-tclass, which sets "
        "the type of service there)");
  if (o.rdma_cm && (o.gid_index || o.peer_gid_index))
    throw core::usage_error(
        "--gid-index does not apply with --rdma-cm on: rdma_cm uses the GID "
        "of the peer's IP address");
  if (o.rdma_cm && (o.pkey_index != 0 || o.peer_pkey_index != 0))
    throw core::usage_error(
        "--pkey-index does not apply with --rdma-cm on: rdma_cm uses the P_Key of the "
        "IP interface (the IPoIB child interface of the partition)");
  return o;
}

bool parse_relaxed_ordering(const std::string& text) {
  if (text == "on") return true;
  if (text == "off") return false;
  throw core::usage_error("--rdma-relaxed-ordering: '" + text + "' is not on or off");
}

std::string pkey_index_problem(int index, int table_len, std::uint16_t pkey) {
  const std::string what = "--pkey-index " + std::to_string(index);
  // Ports without a P_Key table (iWARP) take the default index; nothing there to check.
  if (index == 0 && table_len <= 0) return {};
  if (index < 0 || index >= table_len)
    return what + " is outside the port's P_Key table (" +
           (table_len > 0 ? "indices 0.." + std::to_string(table_len - 1)
                          : std::string("the port reports no entries")) +
           ")";
  // The low 15 bits are the partition; 0 there is the invalid key, an empty slot.
  if ((pkey & 0x7fff) == 0)
    return what + " names an empty entry (P_Key " + pkey_text(pkey) +
           "): a queue pair on it joins no partition; see the port's P_Key table "
           "(/sys/class/infiniband/DEVICE/ports/PORT/pkeys)";
  return {};
}

std::string pkey_text(std::uint16_t pkey) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04x", static_cast<unsigned>(pkey));
  return hex;
}

std::string to_string(completion_mode m) {
  return m == completion_mode::event ? "event" : "poll";
}

completion_mode parse_completion(const std::string& text) {
  if (text == "poll") return completion_mode::poll;
  if (text == "event") return completion_mode::event;
  throw core::usage_error("--rdma-completion: '" + text + "' is not poll or event");
}

bool use_inline(rdma_op op, std::uint64_t size, std::uint32_t wanted, std::uint32_t granted,
                bool host_memory) {
  return op != rdma_op::read && host_memory && size <= std::min(wanted, granted);
}

std::uint32_t provider_inline_default(rdma_op op, const std::string& provider,
                                      const std::string& device_name, std::uint32_t vendor_id) {
  if (op == rdma_op::read) return 0;
  const std::uint32_t connectx = op == rdma_op::write ? default_inline_write : default_inline_send;
  // Providers whose send queue entries hold less inline data than ConnectX's.
  struct limit {
    const char* provider;
    std::uint32_t vendor_id;  // 0: match by provider name only
    std::uint32_t bytes;
  };
  static constexpr limit limits[] = {
      {"bnxt_re", 0x14e4, 96},  // Broadcom NetXtreme
      {"efa", 0x1d0f, 32},      // Amazon
      {"qedr", 0, 128},         // Marvell FastLinQ
      {"erdma", 0, 96},         // Alibaba
      {"hns", 0, 32},           // HiSilicon
  };
  if (provider == "mlx5" || provider == "mlx4" || provider == "cxgb4") return connectx;
  if (provider == "irdma") return device_name.rfind("i40iw", 0) == 0 ? 48 : 101;
  for (const auto& l : limits)
    if (provider == l.provider) return l.bytes;
  // A provider name gpubench does not know: the vendor decides (Mellanox's IEEE OUI for
  // ConnectX; the PCI vendor for the others).
  if (vendor_id == 0x02c9) return connectx;
  for (const auto& l : limits)
    if (l.vendor_id != 0 && vendor_id == l.vendor_id) return l.bytes;
  return 0;
}

std::uint32_t wanted_inline(test_kind test, rdma_op op, memory_kind memory,
                            std::optional<std::uint32_t> requested,
                            std::uint32_t provider_default) {
  if (op == rdma_op::read || memory == memory_kind::cuda) return 0;
  if (requested) return *requested;
  if (test == test_kind::bandwidth) return 0;
  return provider_default;
}

std::string uni_direction(rdma_op op) {
  return op == rdma_op::read ? "from_peer" : "to_peer";
}

std::vector<std::string> bandwidth_directions(rdma_op op, bw_directions d) {
  switch (d) {
    case bw_directions::uni:
      return {uni_direction(op)};
    case bw_directions::bidir:
      return {"bidir"};
    case bw_directions::both:
      break;
  }
  return {uni_direction(op), "bidir"};
}

std::uint32_t send_depth(test_kind test, std::uint32_t requested, std::uint32_t device_max_wr) {
  const std::uint32_t cap = std::max<std::uint32_t>(device_max_wr, 1);
  if (test == test_kind::latency)
    return std::min<std::uint32_t>(2 * latency_signal_every + latency_spare_slots, cap);
  // The send queue also holds the sync message of a bidirectional sample.
  const std::uint32_t window_cap = cap > sync_send_slots ? cap - sync_send_slots : 1;
  return std::clamp<std::uint32_t>(requested, 1, window_cap);
}

std::uint32_t latency_signal_interval(std::uint32_t send_queue_depth) {
  const std::uint32_t room =
      send_queue_depth > latency_spare_slots ? send_queue_depth - latency_spare_slots : 0;
  return std::clamp<std::uint32_t>(room / 2, 1, latency_signal_every);
}

std::uint32_t recv_depth(test_kind test, rdma_op op, std::uint32_t tx_depth,
                         std::uint32_t device_max_wr) {
  const std::uint32_t cap = std::max<std::uint32_t>(device_max_wr, 1);
  // Send bandwidth: a receive for every message of the peer's window, plus its sync messages.
  if (test == test_kind::bandwidth && op == rdma_op::send)
    return std::clamp<std::uint32_t>(std::max(min_bw_recv_depth, 2 * tx_depth), 1, cap);
  return std::min<std::uint32_t>(16, cap);
}

std::uint32_t queue_entries(std::uint32_t want, std::uint32_t device_max, bool pow2_provider) {
  const std::uint32_t cap = std::max<std::uint32_t>(device_max, 1);
  const std::uint32_t w = std::max<std::uint32_t>(want, 1);
  if (!pow2_provider) return std::min(w, cap);
  const std::uint32_t floor_cap = std::bit_floor(cap);
  if (w > floor_cap) return floor_cap;
  return std::bit_ceil(w);
}

bool rounds_queues_to_pow2(const std::string& provider) {
  return provider == "vmw_pvrdma";
}

std::uint64_t receives_outstanding(std::uint64_t received, std::uint64_t per_sample) {
  if (per_sample == 0) return 0;
  const std::uint64_t rest = received % per_sample;
  return rest == 0 ? 0 : per_sample - rest;
}

std::uint64_t cycle_offset(std::uint64_t size, std::uint64_t index, std::uint64_t space) {
  constexpr std::uint64_t cache_line = 64;
  const std::uint64_t cycle = std::min<std::uint64_t>(4096, space);
  if (size == 0 || size > cycle / 2) return 0;
  const std::uint64_t step = (size + cache_line - 1) / cache_line * cache_line;
  return index % (cycle / step) * step;
}

std::uint32_t signal_interval(std::uint32_t cq_mod, std::uint32_t tx_depth) {
  return std::clamp<std::uint32_t>(cq_mod, 1, std::max<std::uint32_t>(tx_depth, 1));
}

std::uint8_t outstanding_reads(std::uint32_t requested, int device_max, std::uint8_t peer) {
  std::uint32_t v =
      std::min<std::uint32_t>(requested, static_cast<std::uint32_t>(std::max(device_max, 1)));
  v = std::min<std::uint32_t>(v, 255);
  if (peer > 0) v = std::min<std::uint32_t>(v, peer);
  return static_cast<std::uint8_t>(std::max<std::uint32_t>(v, 1));
}

}  // namespace gpubench::transports::rdma

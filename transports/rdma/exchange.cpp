#include "transports/rdma/exchange.hpp"

namespace gpubench::transports::rdma {

namespace {

enum class message_type : std::uint8_t { endpoint = 2 };

wire_writer header(message_type t) {
  wire_writer w;
  w.u32(wire_magic);
  w.u8(wire_version);
  w.u8(static_cast<std::uint8_t>(t));
  return w;
}

wire_reader open(std::span<const std::byte> in, message_type t, const char* what) {
  wire_reader r(in, what);
  if (in.size() > max_message_bytes)
    r.fail(std::to_string(in.size()) + " bytes, more than the " +
           std::to_string(max_message_bytes) + " any message may have");
  if (r.u32() != wire_magic) r.fail("not a gpubench RDMA message (bad magic)");
  if (const auto v = r.u8(); v != wire_version)
    r.fail("protocol version " + std::to_string(v) + ", this gpubench speaks " +
           std::to_string(wire_version) + ": run the same gpubench version on both hosts");
  if (r.u8() != static_cast<std::uint8_t>(t)) r.fail("unexpected message type");
  return r;
}

template <typename E>
E enum_in(wire_reader& r, std::uint8_t lo, std::uint8_t hi, const char* field) {
  const auto v = r.u8();
  if (v < lo || v > hi) r.fail(std::string(field) + " " + std::to_string(v) + " out of range");
  return static_cast<E>(v);
}

}  // namespace

std::string to_string(rdma_op op) {
  switch (op) {
    case rdma_op::send:
      return "send";
    case rdma_op::write:
      return "write";
    case rdma_op::read:
      return "read";
  }
  return "unknown";
}

std::string to_string(memory_kind m) {
  return m == memory_kind::cuda ? "cuda" : "host";
}

std::string to_string(link_layer l) {
  return l == link_layer::ethernet ? "Ethernet" : "InfiniBand";
}

std::vector<std::byte> encode(const endpoint_info& e) {
  auto w = header(message_type::endpoint);
  w.u16(e.lid);
  w.u32(e.qpn);
  w.u32(e.psn);
  w.u32(e.rkey);
  w.u64(e.addr);
  w.u64(e.length);
  w.u8(e.has_gid ? 1 : 0);
  w.bytes(e.gid);
  w.u8(static_cast<std::uint8_t>(e.gid_kind));
  w.u8(e.mtu);
  w.u8(e.out_reads);
  w.u8(static_cast<std::uint8_t>(e.link));
  return w.take();
}

endpoint_info decode_endpoint_info(std::span<const std::byte> in, peer_addressing addressing) {
  auto r = open(in, message_type::endpoint, "RDMA endpoint message");
  endpoint_info e;
  e.lid = r.u16();
  e.qpn = r.u32();
  e.psn = r.u32();
  e.rkey = r.u32();
  e.addr = r.u64();
  e.length = r.u64();
  const auto has_gid = r.u8();
  e.gid = r.bytes<16>();
  e.gid_kind = enum_in<gid_type>(r, 0, 2, "GID type");
  e.mtu = r.u8();
  e.out_reads = r.u8();
  e.link = enum_in<link_layer>(r, 1, 2, "link layer");
  r.finish();
  if (e.qpn == 0 || e.qpn > 0xffffff) r.fail("QP number " + std::to_string(e.qpn) + " not 24-bit");
  if (e.psn > 0xffffff) r.fail("PSN " + std::to_string(e.psn) + " not 24-bit");
  if (has_gid > 1) r.fail("GID flag " + std::to_string(has_gid) + " out of range");
  e.has_gid = has_gid == 1;
  bool zero_gid = true;
  for (auto b : e.gid)
    zero_gid = zero_gid && b == 0;
  if (e.has_gid && zero_gid) r.fail("GID flagged present but all zero");
  const bool exchanged = addressing == peer_addressing::exchanged;
  if (e.link == link_layer::infiniband && e.gid_kind != gid_type::ib)
    r.fail("InfiniBand endpoint with a RoCE GID type");
  if (e.link == link_layer::ethernet && e.has_gid && e.gid_kind == gid_type::ib)
    r.fail("RoCE (Ethernet link layer) endpoint with an InfiniBand GID type");
  if (exchanged && e.link == link_layer::ethernet && !e.has_gid)
    r.fail("RoCE (Ethernet link layer) endpoint without a GID");
  if (exchanged && e.link == link_layer::infiniband && !e.has_gid &&
      (e.lid == 0 || e.lid >= 0xc000))
    r.fail("InfiniBand endpoint with no GID and LID " + std::to_string(e.lid) +
           " (not a unicast LID: is the subnet manager running?)");
  if (e.mtu < 1 || e.mtu > 5) r.fail("path MTU code " + std::to_string(e.mtu) + " not 1..5");
  if (e.out_reads == 0) r.fail("zero outstanding RDMA reads");
  if (e.length == 0 || e.length > max_transfer_bytes)
    r.fail("buffer length " + std::to_string(e.length) + " outside 1 B .. 1 GiB");
  if (e.addr > UINT64_MAX - e.length) r.fail("buffer address range wraps around");
  return e;
}

}  // namespace gpubench::transports::rdma

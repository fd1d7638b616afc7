// Fuzzes the RDMA endpoint message decoder (transports/rdma/exchange.*, wire.*), which reads
// the peer's queue pair and buffer from the control channel before any verbs call: it must
// refuse with wire_error only, and what it accepts must be in range and re-encode to the same
// bytes. Both addressings decode the same input; rdma_cm demands less, so it accepts at least
// what exchanged accepts. No verbs device is needed.
#include <algorithm>
#include <optional>

#include "tests/fuzz/fuzz_support.hpp"
#include "transports/rdma/exchange.hpp"

namespace rdma = gpubench::transports::rdma;
using gpubench::fuzz::require;

namespace {

std::optional<rdma::endpoint_info> decode(std::span<const std::byte> in,
                                          rdma::peer_addressing addressing) {
  try {
    return rdma::decode_endpoint_info(in, addressing);
  } catch (const rdma::wire_error&) {
    return std::nullopt;
  }
}

void check_accepted(const rdma::endpoint_info& e, std::span<const std::byte> in) {
  require(e.qpn != 0 && e.qpn <= 0xffffff && e.psn <= 0xffffff, "QPN or PSN not 24-bit");
  require(e.mtu >= 1 && e.mtu <= 5 && e.out_reads > 0, "MTU or outstanding reads out of range");
  require(e.length > 0 && e.length <= rdma::max_transfer_bytes, "buffer length out of range");
  require(e.addr <= UINT64_MAX - e.length, "buffer address range wraps");
  const auto again = rdma::encode(e);
  require(std::equal(again.begin(), again.end(), in.begin(), in.end()),
          "encode(decode_endpoint_info(bytes)) != bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = gpubench::fuzz::bytes_of(data, size);
  const auto exchanged = decode(in, rdma::peer_addressing::exchanged);
  const auto by_cm = decode(in, rdma::peer_addressing::rdma_cm);
  if (exchanged) {
    require(by_cm.has_value(), "accepted for exchanged addressing but refused for rdma_cm");
    check_accepted(*exchanged, in);
  }
  if (by_cm) check_accepted(*by_cm, in);
  return 0;
}

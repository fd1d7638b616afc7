// coll.alltoall: every rank sends block j of its buffer to rank j, as nccl-tests'
// alltoall.cu counts it: the message is a rank's whole buffer (n blocks), of which (n-1)/n
// crosses to other ranks, so busbw = algbw x (n-1)/n. NCCL has it as grouped ncclSend and
// ncclRecv to every rank; out of place only (a block sent and received in place would be
// overwritten before it left). Mixture-of-experts layers send their tokens to the experts
// this way, forward and backward.
#include <algorithm>
#include <array>
#include <memory>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

class alltoall_op final : public collective_op {
 public:
  std::string name() const override { return "alltoall"; }
  std::string label() const override { return "all-to-all"; }
  std::string description() const override {
    return "all-to-all bus bandwidth from 1 to N nodes (NCCL, MPI): mixture-of-experts token "
           "exchange";
  }
  transports::collective_call call() const override {
    return transports::collective_call::alltoall;
  }
  op_counts counts(std::uint64_t count, int ranks) const override {
    const std::uint64_t block = block_of(count, ranks);
    const std::uint64_t total = block * static_cast<std::uint64_t>(ranks);
    return {total, total, total, block};
  }
  double bus_factor(int ranks) const override { return others_share(ranks); }
  std::optional<std::string> no_bandwidth(int ranks) const override {
    return below_two_ranks(ranks, "all-to-all over a single rank");
  }
  bool supports_in_place() const override { return false; }
  void fill(const check_args& a, std::span<std::byte> send,
            std::span<std::byte> recv) const override {
    fill_check(send, a.type, a.rank, a.seed);
    std::fill(recv.begin(), recv.end(), std::byte{0});
  }
  // Block r of the result is block `rank` of rank r's send buffer.
  mismatches check(const check_args& a, std::span<const std::byte> recv) const override {
    const std::uint64_t block = a.counts.call;
    mismatches wrong;
    for (int r = 0; r < a.ranks; ++r) {
      const auto want = check_pattern(r, static_cast<std::uint64_t>(a.rank) * block, a.seed);
      const std::uint64_t first = static_cast<std::uint64_t>(r) * block;
      wrong.add(find_mismatches(element_block(recv, a.type, first, block), a.type, want), first);
    }
    return wrong;
  }
};

}  // namespace

std::shared_ptr<const collective_op> make_alltoall() {
  return std::make_shared<alltoall_op>();
}

}  // namespace gpubench::benchmarks::collectives

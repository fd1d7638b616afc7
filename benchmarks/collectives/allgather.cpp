// coll.allgather: every rank's block gathered on every rank, as nccl-tests' all_gather.cu
// counts it: the message is the gathered buffer (n blocks), each rank sends one block and
// receives the rest, so busbw = algbw x (n-1)/n. In place, a rank's block already sits at its
// place in the receive buffer. Sharded data parallelism (FSDP, ZeRO-3) gathers its parameters
// this way before each layer.
#include <algorithm>
#include <array>
#include <memory>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

class allgather_op final : public collective_op {
 public:
  std::string name() const override { return "allgather"; }
  std::string label() const override { return "all-gather"; }
  std::string description() const override {
    return "all-gather bus bandwidth from 1 to N nodes (NCCL, MPI): sharded training's "
           "parameter gather";
  }
  transports::collective_call call() const override {
    return transports::collective_call::allgather;
  }
  op_counts counts(std::uint64_t count, int ranks) const override {
    const std::uint64_t block = block_of(count, ranks);
    const std::uint64_t total = block * static_cast<std::uint64_t>(ranks);
    return {total, block, total, block};
  }
  double bus_factor(int ranks) const override { return others_share(ranks); }
  std::optional<std::string> no_bandwidth(int ranks) const override {
    return below_two_ranks(ranks, "all-gather over a single rank");
  }
  void fill(const check_args& a, std::span<std::byte> send,
            std::span<std::byte> recv) const override {
    fill_check(send, a.type, a.rank, a.seed);
    std::fill(recv.begin(), recv.end(), std::byte{0});
    // In place the rank's block is its input; out of place the call must write it too.
    if (a.in_place)
      fill_check(element_block(recv, a.type, static_cast<std::uint64_t>(a.rank) * a.counts.send,
                               a.counts.send),
                 a.type, a.rank, a.seed);
  }
  // Block r of the result is rank r's send buffer.
  mismatches check(const check_args& a, std::span<const std::byte> recv) const override {
    mismatches wrong;
    for (int r = 0; r < a.ranks; ++r) {
      const std::uint64_t first = static_cast<std::uint64_t>(r) * a.counts.send;
      wrong.add(find_mismatches(element_block(recv, a.type, first, a.counts.send), a.type,
                                check_pattern(r, 0, a.seed)),
                first);
    }
    return wrong;
  }
};

}  // namespace

std::shared_ptr<const collective_op> make_allgather() {
  return std::make_shared<allgather_op>();
}

}  // namespace gpubench::benchmarks::collectives

// coll.reduce_scatter: the sum over ranks of a whole buffer, each rank keeping one block of
// it, as nccl-tests' reduce_scatter.cu counts it: the message is the whole (send) buffer of n
// blocks, each rank receives one reduced block, so busbw = algbw x (n-1)/n. Out of place only:
// MPI's in-place form (MPI_Reduce_scatter_block) leaves the block at the start of the buffer,
// NCCL's at the rank's place, so the two would not measure the same thing. Sharded data
// parallelism (FSDP, ZeRO) reduces its gradients this way.
#include <algorithm>
#include <array>
#include <memory>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

class reduce_scatter_op final : public collective_op {
 public:
  std::string name() const override { return "reduce_scatter"; }
  std::string label() const override { return "reduce-scatter (sum)"; }
  std::string description() const override {
    return "reduce-scatter bus bandwidth from 1 to N nodes (NCCL, MPI): sharded training's "
           "gradient reduction";
  }
  transports::collective_call call() const override {
    return transports::collective_call::reduce_scatter_sum;
  }
  op_counts counts(std::uint64_t count, int ranks) const override {
    const std::uint64_t block = block_of(count, ranks);
    const std::uint64_t total = block * static_cast<std::uint64_t>(ranks);
    return {total, total, block, block};
  }
  double bus_factor(int ranks) const override { return others_share(ranks); }
  std::optional<std::string> no_bandwidth(int ranks) const override {
    return below_two_ranks(ranks, "reduce-scatter over a single rank");
  }
  bool supports_in_place() const override { return false; }
  void fill(const check_args& a, std::span<std::byte> send,
            std::span<std::byte> recv) const override {
    fill_check(send, a.type, a.rank, a.seed);
    std::fill(recv.begin(), recv.end(), std::byte{0});
  }
  // Rank r keeps block r of the sum: elements from r x block on, summed over the ranks.
  mismatches check(const check_args& a, std::span<const std::byte> recv) const override {
    const std::uint64_t first = static_cast<std::uint64_t>(a.rank) * a.counts.recv;
    std::array<double, check_period> sum{};
    for (int r = 0; r < a.ranks; ++r) {
      const auto p = check_pattern(r, first, a.seed);
      for (std::uint64_t i = 0; i < check_period; ++i)
        sum[i] += p[i];
    }
    return find_mismatches(recv, a.type, sum);
  }
};

}  // namespace

std::shared_ptr<const collective_op> make_reduce_scatter() {
  return std::make_shared<reduce_scatter_op>();
}

}  // namespace gpubench::benchmarks::collectives

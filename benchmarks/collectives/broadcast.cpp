// coll.broadcast: rank 0's buffer copied to every rank, as nccl-tests' broadcast.cu counts
// it: the message is the buffer, and a pipelined broadcast moves it over every link once, so
// busbw = algbw (factor 1). In place, the root's receive buffer is the source. Timed as every
// collective is (20 or more back to back, averaged over the ranks): the root's early return
// touches only the last broadcast of a sample. Training uses
// it to hand the initial parameters out, and pipeline and tensor parallelism for activations.
#include <algorithm>
#include <array>
#include <memory>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

class broadcast_op final : public collective_op {
 public:
  std::string name() const override { return "broadcast"; }
  std::string label() const override { return "broadcast (root 0)"; }
  std::string description() const override {
    return "broadcast bus bandwidth from 1 to N nodes (NCCL, MPI), root rank 0";
  }
  transports::collective_call call() const override {
    return transports::collective_call::broadcast;
  }
  op_counts counts(std::uint64_t count, int) const override { return {count, count, count, count}; }
  double bus_factor(int ranks) const override { return ranks <= 1 ? 0 : 1.0; }
  std::optional<std::string> no_bandwidth(int ranks) const override {
    return below_two_ranks(ranks, "a broadcast from a rank to itself");
  }
  // The root's receive buffer holds its data too: the source in place, and (MPI has one
  // buffer per rank) what the root keeps out of place. So the check looks at what reached the
  // other ranks; NCCL's copy on the root itself, out of place, is not looked at.
  void fill(const check_args& a, std::span<std::byte> send,
            std::span<std::byte> recv) const override {
    fill_check(send, a.type, a.rank, a.seed);
    if (a.rank == 0)
      fill_check(recv, a.type, 0, a.seed);
    else
      std::fill(recv.begin(), recv.end(), std::byte{0});
  }
  mismatches check(const check_args& a, std::span<const std::byte> recv) const override {
    return find_mismatches(recv, a.type, check_pattern(0, 0, a.seed));
  }
};

}  // namespace

std::shared_ptr<const collective_op> make_broadcast() {
  return std::make_shared<broadcast_op>();
}

}  // namespace gpubench::benchmarks::collectives

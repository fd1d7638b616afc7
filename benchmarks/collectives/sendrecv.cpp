// coll.sendrecv: every rank sends its buffer to the next rank and receives the previous one's
// (a ring shift), as nccl-tests' sendrecv.cu does: each link carries the message once in each
// direction it is used, so busbw = algbw (factor 1). Ranks are numbered node by node, so with
// one rank per node every message crosses between nodes. Out of place only. Pipeline
// parallelism hands activations and their gradients from stage to stage this way.
#include <algorithm>
#include <array>
#include <memory>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

class sendrecv_op final : public collective_op {
 public:
  std::string name() const override { return "sendrecv"; }
  std::string label() const override { return "send/recv (ring shift)"; }
  std::string description() const override {
    return "send/recv bandwidth between neighbouring ranks, 1 to N nodes (NCCL, MPI): pipeline "
           "parallelism's stage-to-stage transfer";
  }
  transports::collective_call call() const override {
    return transports::collective_call::sendrecv;
  }
  op_counts counts(std::uint64_t count, int) const override { return {count, count, count, count}; }
  double bus_factor(int ranks) const override { return ranks <= 1 ? 0 : 1.0; }
  std::optional<std::string> no_bandwidth(int ranks) const override {
    return below_two_ranks(ranks, "a rank sending to itself");
  }
  bool supports_in_place() const override { return false; }
  void fill(const check_args& a, std::span<std::byte> send,
            std::span<std::byte> recv) const override {
    fill_check(send, a.type, a.rank, a.seed);
    std::fill(recv.begin(), recv.end(), std::byte{0});
  }
  mismatches check(const check_args& a, std::span<const std::byte> recv) const override {
    const int previous = (a.rank + a.ranks - 1) % a.ranks;
    return find_mismatches(recv, a.type, check_pattern(previous, 0, a.seed));
  }
};

}  // namespace

std::shared_ptr<const collective_op> make_sendrecv() {
  return std::make_shared<sendrecv_op>();
}

}  // namespace gpubench::benchmarks::collectives

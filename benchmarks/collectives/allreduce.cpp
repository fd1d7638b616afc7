// coll.allreduce: allreduce (sum) bus bandwidth over NCCL (GPU buffers) and MPI (host
// buffers), from 1 to N nodes in one MPI launch; self-launched on local ranks when not under
// MPI. This file owns what is allreduce's own, as nccl-tests' all_reduce.cu does: the buffers
// (count elements in, count out), the call, the bus factor 2(n-1)/n and the data check (every
// element the sum over ranks); the driver and the launch are shared (collective_benchmark.hpp).
// Data-parallel training's gradient exchange.
#include <array>
#include <memory>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

class allreduce_op final : public collective_op {
 public:
  std::string name() const override { return "allreduce"; }
  std::string label() const override { return "allreduce (sum)"; }
  std::string description() const override {
    return "allreduce bus bandwidth from 1 to N nodes (NCCL, MPI), over TCP and RDMA";
  }
  transports::collective_call call() const override {
    return transports::collective_call::allreduce_sum;
  }
  op_counts counts(std::uint64_t count, int) const override { return {count, count, count, count}; }

  // Each rank sends and receives 2(n-1)/n of the buffer at best (reduce-scatter, then
  // all-gather), so busbw compares with the link rate whatever n is. 0 for a single rank.
  double bus_factor(int ranks) const override {
    if (ranks <= 1) return 0;
    return 2.0 * (ranks - 1) / ranks;
  }

  std::optional<std::string> no_bandwidth(int ranks) const override {
    if (ranks >= 2) return std::nullopt;
    return "one rank: allreduce over a single rank moves no data between ranks (a copy or a "
           "no-op), so it has no bus bandwidth; measure 2 or more ranks";
  }

  // Both buffers hold the rank's pattern: in place, the receive buffer is the input.
  void fill(const check_args& a, std::span<std::byte> send,
            std::span<std::byte> recv) const override {
    fill_check(send, a.type, a.rank, a.seed);
    fill_check(recv, a.type, a.rank, a.seed);
  }

  mismatches check(const check_args& a, std::span<const std::byte> recv) const override {
    // The sum is periodic in the index like the pattern: one period is enough.
    std::array<double, check_period> sum{};
    for (std::uint64_t i = 0; i < check_period; ++i)
      for (int r = 0; r < a.ranks; ++r)
        sum[i] += check_value(r, i, a.seed);
    return find_mismatches(recv, a.type, sum);
  }
};

}  // namespace

std::shared_ptr<const collective_op> make_allreduce() {
  return std::make_shared<allreduce_op>();
}

}  // namespace gpubench::benchmarks::collectives

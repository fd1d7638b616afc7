// The collective driver sizes its samples from an operation that follows a warm-up: NCCL
// (2.22 on) connects the ranks at a communicator's first call, and a sizing call that included
// that set-up would give the small sizes far fewer operations per sample than meant.
#include <gtest/gtest.h>

#include <map>

#include "benchmarks/collectives/collective_driver.hpp"
#include "benchmarks/collectives/collective_math.hpp"
#include "core/case_state.hpp"

namespace gpubench::benchmarks::collectives {
namespace {

// A backend whose first call of each size costs `setup` seconds more than the rest (lazy
// connection), each operation `per_op` seconds.
class lazy_backend final : public transports::collective_backend {
 public:
  static constexpr double setup = 10e-3;
  static constexpr double per_op = 10e-6;
  std::map<std::uint64_t, int> calls;  // by count
  std::vector<int> iters_seen;

  int ranks() const override { return 2; }
  std::vector<int> local_ranks() const override { return {0}; }
  void prepare(std::size_t, std::size_t) override {}
  void write(transports::buffer_role, std::size_t, std::span<const std::byte>) override {}
  void read(transports::buffer_role, std::size_t, std::span<std::byte>) override {}
  double run(const transports::call_args& args, int iters) override {
    iters_seen.push_back(iters);
    const bool first = calls[args.count]++ == 0;
    return (first ? setup : 0.0) + per_op * iters;
  }
  nlohmann::json describe(transports::collective_call) const override { return {}; }
};

TEST(CollectiveWarmup, SamplesAreSizedAfterTheFirstCallsSetUp) {
  core::benchmark_def def;
  def.id = "t.coll";
  def.kind = core::host_memory_kind({});
  def.metric = core::bandwidth_metric();
  def.sizes = {1024, 4096, 4096};
  def.criteria.min_samples = 3;
  def.criteria.min_time = 0;
  def.criteria.timeout = 1;
  def.criteria.warmup_samples = 1;
  core::run_context ctx;
  core::case_result result;
  core::case_state state(def, ctx, result);
  lazy_backend backend;
  transports::solo_group group;
  measure_request req;
  req.check = false;  // this backend moves no data
  measure_collective(state, *make_allreduce(), backend, group, req, {});

  // A warm call of 10 us: 1 ms samples need 100 operations (20 if sized from the first call).
  const int expected = ops_per_sample(lazy_backend::per_op, 20, 1e-3, 100000, 0);
  ASSERT_EQ(expected, 100);
  ASSERT_EQ(result.points.size(), 3u);  // 1, 2 and 4 KiB
  for (const auto& p : result.points) {
    EXPECT_EQ(p.extra.at("iterations_per_sample"), expected) << p.bytes << " B";
    // No timed sample carries the set-up.
    EXPECT_NEAR(p.extra.at("time_us").get<double>(), lazy_backend::per_op * 1e6, 1e-6)
        << p.bytes << " B";
  }
  for (const auto& [count, n] : backend.calls)
    EXPECT_GE(n, 3) << count << " elements: warm-up, sizing and samples";
}

}  // namespace
}  // namespace gpubench::benchmarks::collectives

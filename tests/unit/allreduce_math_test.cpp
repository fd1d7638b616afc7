#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"
#include "benchmarks/collectives/scaling.hpp"
#include "core/errors.hpp"

using namespace gpubench;
namespace coll = gpubench::benchmarks::collectives;

namespace {

// The allreduce operation's own check, as the driver calls it for one rank of `ranks`.
std::uint64_t allreduce_wrong(std::span<const std::byte> recv, coll::dtype type, int ranks,
                              std::uint32_t seed) {
  const std::uint64_t count = recv.size() / coll::dtype_size(type);
  return coll::make_allreduce()->count_wrong({type, 0, ranks, seed, {count, count, count, count}},
                                             recv);
}

}  // namespace

TEST(AllreduceMath, BusFactorIsTwoNMinusOneOverN) {
  const auto op = coll::make_allreduce();
  EXPECT_DOUBLE_EQ(op->bus_factor(1), 0.0);
  EXPECT_DOUBLE_EQ(op->bus_factor(2), 1.0);
  EXPECT_DOUBLE_EQ(op->bus_factor(4), 1.5);
  EXPECT_DOUBLE_EQ(op->bus_factor(8), 1.75);
}

TEST(AllreduceMath, BandwidthsFromBytesAndTime) {
  // nccl-tests: 1 GB in 0.1 s over 4 ranks is algbw 10 GB/s, busbw 15 GB/s.
  const double factor = coll::make_allreduce()->bus_factor(4);
  const auto b = coll::bandwidths_of(1e9, 0.1, factor);
  EXPECT_DOUBLE_EQ(b.algbw, 10.0);
  EXPECT_DOUBLE_EQ(b.busbw, 15.0);
  EXPECT_DOUBLE_EQ(coll::bandwidths_of(1e9, 0, factor).algbw, 0.0);
}

TEST(AllreduceMath, DtypesParseAndSize) {
  EXPECT_EQ(coll::parse_dtype("float32"), coll::dtype::float32);
  EXPECT_EQ(coll::parse_dtype("double"), coll::dtype::float64);
  EXPECT_EQ(coll::dtype_size(coll::dtype::int64), 8u);
  EXPECT_EQ(coll::dtype_size(coll::dtype::int32), 4u);
  EXPECT_THROW(coll::parse_dtype("bfloat17"), core::usage_error);
}

TEST(AllreduceMath, AtLeastTwentyOpsOrOneMillisecondPerSample) {
  // Large messages (16 MiB and up) used to run one operation per sample.
  EXPECT_EQ(coll::ops_per_sample(0.05), 20);    // 50 ms per op: 20, as nccl-tests
  EXPECT_EQ(coll::ops_per_sample(1e-4), 20);    // 100 us: 20 ops are 2 ms already
  EXPECT_EQ(coll::ops_per_sample(2e-5), 50);    // 20 us: 50 ops for 1 ms
  EXPECT_EQ(coll::ops_per_sample(1e-6), 1000);  // 1 us: 1000 ops
  EXPECT_EQ(coll::ops_per_sample(1e-12), 100000) << "capped";
  EXPECT_EQ(coll::ops_per_sample(0), 20) << "unknown time";
  EXPECT_EQ(coll::ops_per_sample(std::nan("")), 20);
  // 1 GiB over 1 GbE, about 9 s per op, under a 120 s stall timeout (samples up to 30 s):
  // 3 ops rather than a 180 s sample the watchdog would take for a dead peer.
  EXPECT_EQ(coll::ops_per_sample(9.0, 20, 1e-3, 100000, 30.0), 3);
  EXPECT_EQ(coll::ops_per_sample(60.0, 20, 1e-3, 100000, 30.0), 1);
  EXPECT_EQ(coll::ops_per_sample(0.05, 20, 1e-3, 100000, 30.0), 20) << "no cap needed";
}

TEST(AllreduceMath, SingleRankHasNoBusBandwidth) {
  const auto op = coll::make_allreduce();
  ASSERT_TRUE(op->no_bandwidth(1).has_value());
  EXPECT_NE(op->no_bandwidth(1)->find("no bus bandwidth"), std::string::npos);
  EXPECT_FALSE(op->no_bandwidth(2).has_value());
  EXPECT_FALSE(op->no_bandwidth(8).has_value());
}

// Simulates an allreduce of 3 ranks on the host and checks that the pattern verifies, and
// that one corrupted element is counted, in every data type.
TEST(AllreduceMath, CheckPatternDetectsWrongElements) {
  for (auto type :
       {coll::dtype::float32, coll::dtype::float64, coll::dtype::int32, coll::dtype::int64}) {
    const std::size_t count = 1000, bytes = count * coll::dtype_size(type);
    std::vector<std::byte> sum(bytes), part(bytes), recv(bytes);
    for (int r = 0; r < 3; ++r) {
      coll::make_allreduce()->fill({type, r, 3, 7, {count, count, count, count}}, part, recv);
      EXPECT_EQ(part, recv) << "in place, the receive buffer is the input";
      for (std::size_t i = 0; i < count; ++i) {
        if (type == coll::dtype::float32) {
          float a, b;
          std::memcpy(&a, sum.data() + 4 * i, 4);
          std::memcpy(&b, part.data() + 4 * i, 4);
          a = (r == 0 ? 0 : a) + b;
          std::memcpy(sum.data() + 4 * i, &a, 4);
        } else if (type == coll::dtype::int32) {
          std::int32_t a, b;
          std::memcpy(&a, sum.data() + 4 * i, 4);
          std::memcpy(&b, part.data() + 4 * i, 4);
          a = (r == 0 ? 0 : a) + b;
          std::memcpy(sum.data() + 4 * i, &a, 4);
        } else if (type == coll::dtype::float64) {
          double a, b;
          std::memcpy(&a, sum.data() + 8 * i, 8);
          std::memcpy(&b, part.data() + 8 * i, 8);
          a = (r == 0 ? 0 : a) + b;
          std::memcpy(sum.data() + 8 * i, &a, 8);
        } else {
          std::int64_t a, b;
          std::memcpy(&a, sum.data() + 8 * i, 8);
          std::memcpy(&b, part.data() + 8 * i, 8);
          a = (r == 0 ? 0 : a) + b;
          std::memcpy(sum.data() + 8 * i, &a, 8);
        }
      }
    }
    EXPECT_EQ(allreduce_wrong(sum, type, 3, 7), 0u) << coll::to_string(type);
    EXPECT_GT(allreduce_wrong(sum, type, 3, 8), 0u) << "another seed must not verify";
    EXPECT_GT(allreduce_wrong(sum, type, 2, 7), 0u) << "two ranks' sum must not match three";
    sum[5 * coll::dtype_size(type)] ^= std::byte{0x40};
    EXPECT_EQ(allreduce_wrong(sum, type, 3, 7), 1u) << coll::to_string(type);
  }
}

TEST(AllreduceMath, ScalingTableUsesFirstMultiRankBaseline) {
  std::vector<coll::scaling_row> rows = {
      {1, 1, 1 << 20, 0.0, 8, 1.0, 0.0},      // one rank: never a baseline
      {2, 2, 1 << 20, 10.0, 8, 20.0, 0.001},  // baseline
      {4, 4, 1 << 20, 9.0, 8, 40.0, 0.0005},
  };
  const auto t = coll::scaling_table(rows);
  EXPECT_EQ(t["baseline_nodes"], 2);
  EXPECT_EQ(t["multi_node_baseline_nodes"], 2);
  ASSERT_EQ(t["rows"].size(), 3u);
  EXPECT_TRUE(t["rows"][0]["large"]["busbw_relative"].get<double>() == 0.0);
  EXPECT_DOUBLE_EQ(t["rows"][2]["large"]["busbw_relative"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(t["rows"][2]["small"]["time_relative"].get<double>(), 2.0);
  const auto none = coll::scaling_table({{1, 1, 8, 0, 8, 1, 0}});
  EXPECT_TRUE(none["baseline_nodes"].is_null());
  EXPECT_TRUE(none["baseline"].is_null());
  EXPECT_TRUE(none["rows"][0]["large"]["busbw_relative"].is_null());
  EXPECT_TRUE(none["rows"][0]["large"]["busbw_relative_multi_node"].is_null());
}

// 8 GPUs per node: the 1-node row is NVLink (200 GB/s), 2 and 4 nodes cross the network
// (20 and 18 GB/s). Against 1 node that reads as a collapse to 0.1; against the first
// multi-node row, 4 nodes keep 0.9 of 2 nodes. Both are given, each naming its baseline.
TEST(AllreduceMath, ScalingTableAlsoAgainstFirstMultiNodeRow) {
  std::vector<coll::scaling_row> rows = {
      {4, 32, 1 << 30, 18.0, 8, 60.0, 0.001},
      {1, 8, 1 << 30, 200.0, 8, 10.0, 0.01},
      {2, 16, 1 << 30, 20.0, 8, 50.0, 0.002},
  };
  const auto t = coll::scaling_table(rows);
  EXPECT_EQ(t["baseline_nodes"], 1);
  EXPECT_EQ(t["baseline"]["ranks"], 8);
  EXPECT_EQ(t["multi_node_baseline_nodes"], 2);
  EXPECT_EQ(t["multi_node_baseline"]["ranks"], 16);
  EXPECT_NE(t["basis"].get<std::string>().find("multi_node_baseline"), std::string::npos);
  ASSERT_EQ(t["rows"].size(), 3u);
  const auto& four = t["rows"][2];
  EXPECT_EQ(four["nodes"], 4);
  EXPECT_DOUBLE_EQ(four["large"]["busbw_relative"].get<double>(), 0.09);
  EXPECT_DOUBLE_EQ(four["large"]["busbw_relative_multi_node"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(four["small"]["time_relative_multi_node"].get<double>(), 1.2);
  // The 1-node row has no multi-node ratio below it... it is simply relative to 2 nodes.
  EXPECT_DOUBLE_EQ(t["rows"][0]["large"]["busbw_relative_multi_node"].get<double>(), 10.0);
  // One node only: no multi-node baseline, its ratios null.
  const auto one = coll::scaling_table({{1, 8, 1 << 30, 200.0, 8, 10.0, 0.01}});
  EXPECT_TRUE(one["multi_node_baseline_nodes"].is_null());
  EXPECT_TRUE(one["rows"][0]["large"]["busbw_relative_multi_node"].is_null());
  EXPECT_DOUBLE_EQ(one["rows"][0]["large"]["busbw_relative"].get<double>(), 1.0);
}

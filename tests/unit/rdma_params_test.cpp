// RDMA options and the choices made from them: inline size, depths, signalling,
// outstanding reads; and the CPU list parser behind NUMA binding.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "transports/rdma/numa_binding.hpp"
#include "transports/rdma/params.hpp"

namespace rdma = gpubench::transports::rdma;
using gpubench::core::usage_error;

TEST(RdmaParams, ParsesOptions) {
  gpubench::core::run_context ctx;
  auto o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.ops.size(), 3u);
  EXPECT_EQ(o.memory, rdma::memory_kind::host);
  EXPECT_EQ(o.tx_depth, 128u);
  EXPECT_EQ(o.cq_mod, 100u);
  EXPECT_FALSE(o.gid_index);
  ctx.options = {{"rdma-op", "write,read,write"},
                 {"rdma-memory", "cuda"},
                 {"gid-index", "3"},
                 {"tx-depth", "256"},
                 {"rdma-device", "mlx5_1"},
                 {"rdma-port", "2"}};
  o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.ops, (std::vector<rdma::rdma_op>{rdma::rdma_op::write, rdma::rdma_op::read}));
  EXPECT_EQ(o.memory, rdma::memory_kind::cuda);
  EXPECT_EQ(o.gid_index, 3);
  EXPECT_EQ(o.tx_depth, 256u);
  EXPECT_EQ(o.device, "mlx5_1");
  EXPECT_EQ(o.port, 2);
}

TEST(RdmaParams, RejectsBadOptionsNamingThem) {
  auto bad = [](const std::string& name, const std::string& value) {
    gpubench::core::run_context ctx;
    ctx.options = {{name, value}};
    try {
      rdma::parse_rdma_options(ctx);
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("--" + name), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << name << "=" << value << " accepted";
  };
  bad("rdma-op", "atomic");
  bad("rdma-op", "send,");
  bad("rdma-op", ",");
  bad("rdma-memory", "gpu");
  bad("tx-depth", "0");
  bad("tx-depth", "100000");
  bad("tx-depth", "12x");
  bad("rdma-port", "0");
  bad("gid-index", "-1");
  bad("cq-mod", "0");
  bad("rdma-inline", "5000");
  bad("rdma-iters", "0");
  bad("rdma-direction", "sideways");
  bad("rdma-gpu", "-1");
  bad("peer-rdma-gpu", "x");
}

TEST(RdmaParams, BandwidthDirectionsAndIterations) {
  gpubench::core::run_context ctx;
  auto o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.iterations, 5000u);  // perftest's bandwidth default
  EXPECT_EQ(o.directions, rdma::bw_directions::both);
  ctx.options = {{"rdma-iters", "20000"}, {"rdma-direction", "bidir"}, {"rdma-gpu", "3"}};
  o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.iterations, 20000u);
  EXPECT_EQ(o.directions, rdma::bw_directions::bidir);
  EXPECT_EQ(o.gpu, 3);

  using strings = std::vector<std::string>;
  // A read pulls data from the peer: its one-way case is labelled as TCP's from_peer.
  EXPECT_EQ(rdma::bandwidth_directions(rdma::rdma_op::read, rdma::bw_directions::both),
            (strings{"from_peer", "bidir"}));
  EXPECT_EQ(rdma::bandwidth_directions(rdma::rdma_op::write, rdma::bw_directions::uni),
            (strings{"to_peer"}));
  EXPECT_EQ(rdma::bandwidth_directions(rdma::rdma_op::send, rdma::bw_directions::bidir),
            (strings{"bidir"}));
}

TEST(RdmaParams, InlineChoice) {
  using rdma::memory_kind;
  using rdma::rdma_op;
  using rdma::test_kind;
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::write, memory_kind::host, {}), 220u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::send, memory_kind::host, {}), 236u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::read, memory_kind::host, 64u), 0u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::send, memory_kind::cuda, 64u), 0u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::bandwidth, rdma_op::write, memory_kind::host, {}), 0u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::bandwidth, rdma_op::write, memory_kind::host, 64u), 64u);
}

TEST(RdmaParams, WindowDepthsAndSignalling) {
  using rdma::test_kind;
  EXPECT_EQ(rdma::send_depth(test_kind::bandwidth, 128, 16384), 128u);
  EXPECT_EQ(rdma::send_depth(test_kind::bandwidth, 128, 64),
            63u);  // device limit less the sync slot
  EXPECT_LE(rdma::send_depth(test_kind::latency, 128, 16384), 4u);
  EXPECT_EQ(rdma::recv_depth(test_kind::bandwidth, rdma::rdma_op::send, 128, 16384), 130u);
  EXPECT_EQ(rdma::signal_interval(100, 128), 100u);
  EXPECT_EQ(rdma::signal_interval(100, 16), 16u);  // never beyond the window
  EXPECT_EQ(rdma::signal_interval(0, 16), 1u);
}

TEST(RdmaParams, OutstandingReads) {
  EXPECT_EQ(rdma::outstanding_reads(16, 16, 0), 16);
  EXPECT_EQ(rdma::outstanding_reads(16, 4, 0), 4);   // device limit
  EXPECT_EQ(rdma::outstanding_reads(16, 16, 8), 8);  // the peer's limit
  EXPECT_EQ(rdma::outstanding_reads(16, 0, 0), 1);   // never 0: reads would fail
}

TEST(RdmaParams, CpuLists) {
  EXPECT_EQ(rdma::parse_cpu_list("0-3,8-9"), (std::vector<int>{0, 1, 2, 3, 8, 9}));
  EXPECT_EQ(rdma::parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_TRUE(rdma::parse_cpu_list("3-1").empty());
  EXPECT_TRUE(rdma::parse_cpu_list("a-b").empty());
  EXPECT_TRUE(rdma::parse_cpu_list("1-2x").empty());
  EXPECT_TRUE(rdma::parse_cpu_list("").empty());
}

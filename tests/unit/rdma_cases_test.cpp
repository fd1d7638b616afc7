// The cases net.rdma.* records: how loopback is labelled, and the completion mode, traffic
// class, service level, P_Key index and relaxed ordering they carry when not the defaults.
#include <gtest/gtest.h>

#include "benchmarks/network/rdma_common.hpp"
#include "core/run_context.hpp"

namespace rdma = gpubench::transports::rdma;

TEST(RdmaCases, LoopbackSaysTheHcaIsCrossed) {
  gpubench::core::run_context ctx;
  ctx.options = {{"rdma-device", "mlx5_0"}};
  const auto cases = gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::latency);
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto peer = c.at("peer").get<std::string>();
    // RDMA loopback goes through the device: never TCP's "no NIC crossed".
    EXPECT_EQ(peer.find("no NIC crossed"), std::string::npos) << peer;
    EXPECT_NE(peer.find("RDMA device"), std::string::npos) << peer;
  }
  ctx.peer = "198.18.0.2";
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::latency))
    EXPECT_EQ(c.at("peer").get<std::string>().rfind("198.18.0.2", 0), 0u) << c.dump();
}

TEST(RdmaCases, CompletionModeAndClassesAreRecordedWhenChosen) {
  gpubench::core::run_context ctx;
  ctx.options = {{"rdma-device", "mlx5_0"}};
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth)) {
    // Defaults stay out of the params: cases keep their identity for compare.
    EXPECT_FALSE(c.contains("completion")) << c.dump();
    EXPECT_FALSE(c.contains("tclass")) << c.dump();
  }
  ctx.options = {{"rdma-device", "mlx5_0"},
                 {"rdma-completion", "event"},
                 {"rdma-tclass", "106"},
                 {"rdma-sl", "3"}};
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth)) {
    EXPECT_EQ(c.value("completion", ""), "event") << c.dump();
    EXPECT_EQ(c.value("tclass", 0), 106) << c.dump();
    EXPECT_EQ(c.value("sl", 0), 3) << c.dump();
  }
}

TEST(RdmaCases, PkeyIndexAndRelaxedOrderingOffAreRecordedWhenChosen) {
  gpubench::core::run_context ctx;
  ctx.options = {{"rdma-device", "mlx5_0"}};
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::bandwidth)) {
    EXPECT_FALSE(c.contains("pkey_index")) << c.dump();
    EXPECT_FALSE(c.contains("relaxed_ordering")) << c.dump();
  }
  ctx.options = {{"rdma-device", "mlx5_0"}, {"pkey-index", "2"}, {"rdma-relaxed-ordering", "off"}};
  for (const auto& c : gpubench::benchmarks::network::rdma_cases(ctx, rdma::test_kind::latency)) {
    EXPECT_EQ(c.value("pkey_index", 0), 2) << c.dump();
    EXPECT_EQ(c.value("relaxed_ordering", ""), "off") << c.dump();
  }
}

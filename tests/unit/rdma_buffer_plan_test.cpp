// The sizes of an RDMA case's registered buffers under a device's limits (max_mr_size,
// max_msg_sz): PVRDMA registers at most 1 GiB per region.
#include <gtest/gtest.h>

#include "transports/rdma/buffer_plan.hpp"
#include "transports/rdma/warmup.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {
// Named apart from the KiB and MiB of other test files in the same unity batch.
constexpr std::uint64_t one_kib = 1024, one_mib = one_kib * 1024, one_gib = one_mib * 1024;
}  // namespace

TEST(RdmaBufferPlan, PvrdmaTakesAOneGibMessage) {
  // Before: one region of twice the largest size, 2 GiB, refused at registration.
  const auto p = rdma::plan_buffers(one_gib, 4 * one_kib, one_gib, 2 * one_gib, "vmw_pvrdma0");
  EXPECT_EQ(p.largest_message, one_gib);
  EXPECT_EQ(p.region_bytes, one_gib);
  EXPECT_TRUE(p.limit.empty()) << p.limit;
}

TEST(RdmaBufferPlan, RegionLimitBelowTheLargestSize) {
  const auto p = rdma::plan_buffers(one_gib, 4 * one_kib, 512 * one_mib, 2 * one_gib, "dev0");
  EXPECT_EQ(p.largest_message, 512 * one_mib);
  EXPECT_EQ(p.region_bytes, 512 * one_mib);
  EXPECT_NE(p.limit.find("dev0 registers at most 536870912 bytes"), std::string::npos) << p.limit;
  EXPECT_NE(p.limit.find("max_mr_size"), std::string::npos);
  // A limit that is not a whole number of pages: the largest whole-page region under it.
  const auto odd = rdma::plan_buffers(one_gib, 4 * one_kib, one_gib - 1, 0, "dev0");
  EXPECT_EQ(odd.largest_message, one_gib - 4 * one_kib);
  EXPECT_EQ(odd.region_bytes, one_gib - 4 * one_kib);
  // A size that is not a page multiple still needs its whole page.
  const auto partial = rdma::plan_buffers(8 * one_kib + 1, 4 * one_kib, 8 * one_kib, 0, "dev0");
  EXPECT_EQ(partial.largest_message, 8 * one_kib);
  EXPECT_FALSE(partial.limit.empty());
}

TEST(RdmaBufferPlan, MessageLimitAndGpuPages) {
  const auto msg = rdma::plan_buffers(4 * one_mib, 4 * one_kib, 0, one_mib, "dev0");
  EXPECT_EQ(msg.largest_message, one_mib);
  EXPECT_NE(msg.limit.find("max_msg_sz"), std::string::npos) << msg.limit;
  // GPU memory is registered in 64 KiB pages.
  const auto gpu = rdma::plan_buffers(1000, 64 * one_kib, one_gib, 2 * one_gib, "mlx5_0");
  EXPECT_EQ(gpu.largest_message, 1000u);
  EXPECT_EQ(gpu.region_bytes, 64 * one_kib);
  EXPECT_TRUE(gpu.limit.empty());
  // Unknown limits (0): the requested size as is.
  EXPECT_EQ(rdma::plan_buffers(3 * one_gib, 4 * one_kib, 0, 0, "d").largest_message, 3 * one_gib);
  // Not even one page fits: nothing.
  const auto none = rdma::plan_buffers(one_mib, 64 * one_kib, 4 * one_kib, 0, "tiny0");
  EXPECT_EQ(none.largest_message, 0u);
  EXPECT_FALSE(none.limit.empty());
}

TEST(RdmaBufferPlan, SizeText) {
  EXPECT_EQ(rdma::size_text(one_gib), "1 GiB");
  EXPECT_EQ(rdma::size_text(512 * one_mib), "512 MiB");
  EXPECT_EQ(rdma::size_text(4 * one_kib), "4 KiB");
  EXPECT_EQ(rdma::size_text(1000), "1000 B");
  EXPECT_EQ(rdma::size_text(one_gib - 4 * one_kib), "1048572 KiB");
}

// The untimed warm-up before a bandwidth point: perftest's window, at most 16 MiB.
TEST(RdmaWarmup, OneWindowAtMost16MiB) {
  using gpubench::transports::rdma::warmup_messages;
  EXPECT_EQ(warmup_messages(4096, 128), 128u);        // 512 KiB: the whole window
  EXPECT_EQ(warmup_messages(128u << 10, 128), 128u);  // exactly 16 MiB
  EXPECT_EQ(warmup_messages(1u << 20, 128), 16u);     // 1 MiB: 16, not 128
  EXPECT_EQ(warmup_messages(64u << 20, 128), 1u);     // larger than the cap: still one
  EXPECT_EQ(warmup_messages(2, 0), 1u);               // never none
}

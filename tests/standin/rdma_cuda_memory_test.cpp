// RDMA's GPU memory (transports/rdma/cuda_memory.cpp, unchanged) on the CPU stand-in: its
// buffer is made on the GPU asked for, in whole GPU pages, zeroed on the device, freed when
// it goes; a GPU that does not exist is a usage error, no GPU a skip with the reason. The
// DMA-BUF export and the registration need a verbs device (tests/softroce, scripts/
// gpu-validate.sh), not here.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "machine.hpp"
#include "transports/rdma/rdma_memory.hpp"

namespace gpubench::tests::standin {
namespace {

namespace rdma = gpubench::transports::rdma;

TEST(StandinRdmaMemory, MadeOnItsGpuInWholePagesZeroedAndFreed) {
  machine m;
  {
    auto mem = rdma::make_cuda_memory(100'000, 2);
    EXPECT_EQ(mem->size(), 2u * 64 * 1024) << "rounded up to whole 64 KiB GPU pages";
    EXPECT_FALSE(mem->host_accessible());
    EXPECT_NE(mem->describe().find("GPU 2"), std::string::npos);
    const auto made = m.allocations();
    ASSERT_EQ(made.size(), 1u);
    EXPECT_EQ(made[0].kind, memory_kind::device);
    EXPECT_EQ(made[0].device, 2) << "allocated with GPU 2 current";
    // Zeroed on the device: the stand-in's memory is host memory underneath, readable here.
    std::vector<std::byte> zeros(mem->size()), seen(mem->size());
    std::memcpy(seen.data(), mem->data(), seen.size());
    EXPECT_EQ(seen, zeros);
    EXPECT_EQ(m.contexts(), std::set<int>{2}) << "no context on another GPU";
  }
  EXPECT_TRUE(m.leaks().empty()) << m.leaks().front();
}

TEST(StandinRdmaMemory, NoSuchGpuIsAUsageError) {
  machine m;
  EXPECT_THROW(rdma::make_cuda_memory(4096, 4), core::usage_error);
}

TEST(StandinRdmaMemory, NoGpuIsASkipWithTheReason) {
  try {
    rdma::make_cuda_memory(4096, 0);
    FAIL() << "no stand-in machine installed: expected a skip";
  } catch (const core::skip_case& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpubench::tests::standin

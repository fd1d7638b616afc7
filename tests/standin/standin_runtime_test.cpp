// The stand-in is strict where CUDA is: asynchronous streams, events that complete when
// their stream reaches them, pageable copies that land late, device pointers that belong to
// their device, the current device recorded per allocation, unknown flags refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/cuda/resources.hpp"
#include "machine.hpp"

namespace gpubench::tests::standin {
namespace {

namespace cuda = gpubench::benchmarks::gpu::cuda;
using namespace std::chrono_literals;

constexpr std::size_t bytes = 4096;

// A latch flag and a spin kernel on `s`, released by the caller.
struct latch {
  explicit latch(const cuda::stream& s) : flag(s.device()) {
    cuda::preload_kernels({s.device()});
    cuda::select_device(s.device());
    cuda::launch_spin(s.get(), flag.flag_device(), flag.timed_out_device(), 10'000'000'000);
  }
  cuda::latch_flag flag;
};

TEST(StandinRuntime, CopyQueuedBehindTheSpinKernelWaitsForTheHost) {
  machine m;
  {
    const cuda::stream s(1);
    latch l(s);
    void* host = nullptr;
    ASSERT_EQ(cudaHostAlloc(&host, bytes, cudaHostAllocPortable | cudaHostAllocMapped),
              cudaSuccess);
    std::memset(host, 7, bytes);
    const cuda::device_memory dev(1, bytes);
    ASSERT_EQ(cudaMemcpyAsync(dev.get(), host, bytes, cudaMemcpyDefault, s.get()), cudaSuccess);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(cudaStreamQuery(s.get()), cudaErrorNotReady) << "the copy ran before the release";
    std::vector<unsigned char> back(bytes);
    l.flag.set(1);
    s.synchronize("test");
    ASSERT_EQ(cudaMemcpy(back.data(), dev.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(back, std::vector<unsigned char>(bytes, 7));
    EXPECT_EQ(cudaFreeHost(host), cudaSuccess);
  }
  EXPECT_TRUE(m.leaks().empty());
}

TEST(StandinRuntime, EventsCompleteWhenTheStreamReachesThem) {
  machine m;
  const cuda::stream s(0);
  const cuda::event start(0), end(0);
  const cuda::device_memory a(0, bytes), b(0, bytes);
  latch l(s);
  ASSERT_EQ(cudaEventRecord(start.get(), s.get()), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s.get()),
            cudaSuccess);
  ASSERT_EQ(cudaEventRecord(end.get(), s.get()), cudaSuccess);
  float ms = 0;
  EXPECT_EQ(cudaEventQuery(end.get()), cudaErrorNotReady);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start.get(), end.get()), cudaErrorNotReady);
  l.flag.set(1);
  ASSERT_EQ(cudaEventSynchronize(end.get()), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start.get(), end.get()), cudaSuccess);
  EXPECT_EQ(m.counts_at(end.get()).copies - m.counts_at(start.get()).copies, 1u);
  EXPECT_EQ(m.counts_at(end.get()).copy_bytes - m.counts_at(start.get()).copy_bytes, bytes);
}

TEST(StandinRuntime, PageableCopyReturnsBeforeTheDataLands) {
  machine_config config;
  config.pageable_landing = std::chrono::seconds(30);  // lands only when synchronised
  machine m(config);
  const cuda::device_memory dev(2, bytes);
  const cuda::stream other(2);
  void* pinned = nullptr;
  ASSERT_EQ(cudaHostAlloc(&pinned, bytes, cudaHostAllocPortable), cudaSuccess);
  const std::vector<unsigned char> pageable(bytes, 9);
  cuda::select_device(2);
  ASSERT_EQ(cudaMemcpy(dev.get(), pageable.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  // A non-blocking stream does not wait for the legacy stream: it sees the old bytes.
  ASSERT_EQ(cudaMemcpyAsync(pinned, dev.get(), bytes, cudaMemcpyDeviceToHost, other.get()),
            cudaSuccess);
  other.synchronize("test");
  EXPECT_NE(static_cast<unsigned char*>(pinned)[0], 9);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(pinned, dev.get(), bytes, cudaMemcpyDeviceToHost, other.get()),
            cudaSuccess);
  other.synchronize("test");
  EXPECT_EQ(static_cast<unsigned char*>(pinned)[0], 9);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

TEST(StandinRuntime, AKernelReachesAPeersMemoryOnlyWithPeerAccess) {
  {
    machine m;
    const cuda::device_memory theirs(1, bytes);
    const cuda::stream s(0);
    cuda::preload_kernels({0});
    cuda::select_device(0);
    // The fault is asynchronous: it may already be the sticky error when the launch checks
    // for errors (as on a GPU), else the synchronise returns it.
    try {
      cuda::launch_fill(s.get(), theirs.get(), bytes / 4, 1);
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("illegal memory access"), std::string::npos) << e.what();
    }
    EXPECT_EQ(cudaStreamSynchronize(s.get()), cudaErrorIllegalAddress);
    ASSERT_EQ(m.faults().size(), 1u);
    EXPECT_NE(m.faults()[0].find("peer access GPU 0 -> GPU 1 is not enabled"), std::string::npos);
  }
  machine m;
  const cuda::device_memory theirs(1, bytes);
  const cuda::stream s(0);
  cuda::preload_kernels({0});
  cuda::select_device(0);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(2, 0), cudaErrorPeerAccessUnsupported);
  EXPECT_EQ(cudaGetLastError(), cudaErrorPeerAccessUnsupported);
  ASSERT_EQ(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
  cuda::launch_fill(s.get(), theirs.get(), bytes / 4, 1);
  EXPECT_EQ(cudaStreamSynchronize(s.get()), cudaSuccess);
  EXPECT_TRUE(m.faults().empty());
  EXPECT_EQ(cudaDeviceDisablePeerAccess(1), cudaSuccess);
}

TEST(StandinRuntime, EachAllocationRecordsTheDeviceCurrentWhenItWasMade) {
  machine m;
  {
    const cuda::device_memory on2(2, bytes);
    const cuda::latch_flag flag(3);
    void* unselected = nullptr;
    // No device of its own: whatever the thread selected last (nothing is put back).
    ASSERT_EQ(cudaMalloc(&unselected, bytes), cudaSuccess);
    EXPECT_EQ(cudaFree(unselected), cudaSuccess);
  }
  const auto all = m.allocations();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].kind, memory_kind::device);
  EXPECT_EQ(all[0].device, 2);
  EXPECT_EQ(all[1].kind, memory_kind::host_alloc);
  EXPECT_EQ(all[1].device, 3);
  EXPECT_TRUE(all[1].portable && all[1].mapped);
  EXPECT_EQ(all[2].device, 3);
  EXPECT_EQ(m.contexts(), (std::set<int>{2, 3}));
}

TEST(StandinRuntime, TheChaseKernelEndsWhereTheChainLeads) {
  machine m;
  const cuda::stream s(0);
  const cuda::device_memory chain(0, 4 * 128), sink(0, sizeof(void*));
  std::vector<std::uint64_t> words(4 * 16, 0);
  const auto base = reinterpret_cast<std::uint64_t>(chain.get());
  for (std::uint64_t i = 0; i < 4; ++i)
    words[i * 16] = base + (i + 1) % 4 * 128;
  cuda::select_device(0);
  ASSERT_EQ(cudaMemcpy(chain.get(), words.data(), 4 * 128, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cuda::preload_kernels({0});
  cuda::launch_chase(s.get(), chain.get(), 5, static_cast<void**>(sink.get()));
  void* end = nullptr;
  // The legacy stream does not wait for a non-blocking one: read only after synchronising.
  s.synchronize("test");
  ASSERT_EQ(cudaMemcpy(&end, sink.get(), sizeof end, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<std::uint64_t>(end), base + 128);  // 5 loads: node 1
  // A chain of garbage is an illegal address, and the device's error is sticky.
  ASSERT_EQ(cudaMemset(chain.get(), 0x40, 4 * 128), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  try {
    cuda::launch_chase(s.get(), chain.get(), 5, static_cast<void**>(sink.get()));
  } catch (const std::runtime_error&) {
    // The fault may already be the device's sticky error when the launch is checked.
  }
  EXPECT_EQ(cudaStreamSynchronize(s.get()), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
}

TEST(StandinRuntime, AChaseThatEndsOnNullTraps) {
  machine m;
  const cuda::stream s(0);
  const cuda::device_memory sink(0, sizeof(void*));
  cuda::preload_kernels({0});
  cuda::select_device(0);
  try {
    cuda::launch_chase(s.get(), nullptr, 0, static_cast<void**>(sink.get()));
  } catch (const std::runtime_error&) {
    // The trap may already be the device's sticky error when the launch is checked.
  }
  EXPECT_EQ(cudaStreamSynchronize(s.get()), cudaErrorLaunchFailure);
  ASSERT_EQ(m.faults().size(), 1u);
  EXPECT_NE(m.faults()[0].find("__trap"), std::string::npos);
}

TEST(StandinRuntime, MisuseAndUnknownFlagsFailLoudly) {
  machine m;
  cudaStream_t blocking = nullptr;
  EXPECT_EQ(cudaStreamCreateWithFlags(&blocking, cudaStreamDefault), cudaErrorNotSupported);
  std::vector<unsigned char> host(bytes);
  EXPECT_EQ(cudaHostRegister(host.data(), bytes, 0x04), cudaErrorNotSupported);
  ASSERT_EQ(cudaHostRegister(host.data(), bytes, cudaHostRegisterPortable), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(host.data()), cudaErrorInvalidValue);  // registered: unregister it
  void* mapped = nullptr;
  EXPECT_EQ(cudaHostGetDevicePointer(&mapped, host.data(), 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaHostUnregister(host.data()), cudaSuccess);
  {
    const cuda::device_memory dev(0, bytes);
    EXPECT_EQ(cudaMemcpy(dev.get(), host.data(), bytes, cudaMemcpyDeviceToHost),
              cudaErrorInvalidValue);
    const cuda::stream on1(1);
    const cuda::event on0(0);
    EXPECT_EQ(cudaEventRecord(on0.get(), on1.get()), cudaErrorInvalidResourceHandle);
    cuda::preload_kernels({0});
    cuda::select_device(0);
    // GPU 0 current, GPU 1's stream: the launch check reads cudaErrorInvalidResourceHandle.
    EXPECT_THROW(cuda::launch_fill(on1.get(), dev.get(), bytes / 4, 1), std::runtime_error);
  }
  EXPECT_TRUE(m.leaks().empty());
}

TEST(StandinRuntime, LeftoversAreNamed) {
  machine m;
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, bytes), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ASSERT_EQ(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
  const auto leaks = m.leaks();
  ASSERT_EQ(leaks.size(), 2u);
  EXPECT_NE(leaks[0].find("never freed"), std::string::npos);
  EXPECT_NE(leaks[1].find("GPU 0 -> GPU 1 left enabled"), std::string::npos);
}

}  // namespace
}  // namespace gpubench::tests::standin

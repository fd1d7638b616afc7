// The wiring of the GPU jobs on the stand-in: each stream's timed interval holds exactly its
// own timed copies, every buffer and pinning is made with its own GPU current, a job opens
// contexts on its own GPUs only, and leaves nothing behind (memory, streams, events, peer
// access).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "benchmarks/gpu/copy_schedule.hpp"
#include "benchmarks/gpu/gpu_backend.hpp"
#include "machine.hpp"

namespace gpubench::tests::standin {
namespace {

namespace gpu = gpubench::benchmarks::gpu;

constexpr std::uint64_t size = 64u << 10;
constexpr unsigned loops = gpu::schedule_for(size).loops;

// One sample as the runner takes it, then the data check.
void one_sample(gpu::copy_job& job, machine& m) {
  job.prepare(size);
  m.clear_reached_events();
  auto& t = job.timer();
  t.start();
  job.enqueue();
  t.stop();
  t.seconds();
  job.verify();
}

// Per stream, what ran between its first two events of the sample: its start and end events
// (the latch records a start and an end on every timed stream, then the total end on a join
// stream of its own, the one stream that reaches a single event).
std::vector<stream_counts> timed_per_stream(const machine& m) {
  std::map<const void*, std::vector<stream_counts>> seen;
  std::vector<const void*> order;
  for (const auto& e : m.reached_events()) {
    if (seen.find(e.stream) == seen.end()) order.push_back(e.stream);
    seen[e.stream].push_back(e.counts);
  }
  std::vector<stream_counts> out;
  int joins = 0;
  for (const void* s : order) {
    const auto& v = seen[s];
    if (v.size() < 2) {
      ++joins;
      continue;
    }
    out.push_back({v[1].copies - v[0].copies, v[1].copy_bytes - v[0].copy_bytes,
                   v[1].kernels - v[0].kernels});
  }
  EXPECT_EQ(joins, 1) << "one stream joins the timed streams and records the total end";
  return out;
}

// Both ways between GPUs 2 and 3 (a peer pair), copy engine, `size` bytes at most.
gpu::p2p_copy_request bidir_2_3() {
  gpu::p2p_copy_request r;
  r.src = 2;
  r.dst = 3;
  r.bidir = true;
  r.max_bytes = size;
  return r;
}

void expect_copies(const std::vector<stream_counts>& timed, std::size_t streams) {
  ASSERT_EQ(timed.size(), streams);
  for (const auto& t : timed) {
    EXPECT_EQ(t.copies, loops) << "a stream's timed interval must hold its own copies, no more";
    EXPECT_EQ(t.copy_bytes, loops * size);
    EXPECT_EQ(t.kernels, 0u);
  }
}

TEST(StandinGpuJobs, BidirectionalHostCopiesTimeEachDirectionOnItsOwnStream) {
  machine m;
  {
    auto job = gpu::make_backend()->host_copy({{1},
                                               gpu::host_direction::bidir,
                                               gpu::host_memory::pinned,
                                               gpu::copy_engine::ce,
                                               {},
                                               size});
    one_sample(*job, m);
    expect_copies(timed_per_stream(m), 2);
  }
  EXPECT_TRUE(m.leaks().empty());
}

TEST(StandinGpuJobs, AllGpusAtOnceTimeEveryGpusCopiesOnItsStream) {
  machine m;
  auto job = gpu::make_backend()->host_copy({{0, 1, 2, 3},
                                             gpu::host_direction::d2h,
                                             gpu::host_memory::pinned,
                                             gpu::copy_engine::ce,
                                             {},
                                             size});
  one_sample(*job, m);
  expect_copies(timed_per_stream(m), 4);
}

TEST(StandinGpuJobs, PeerCopiesTimeEachDirectionOnTheInitiatorsStream) {
  machine m;
  {
    gpu::p2p_copy_request r = bidir_2_3();
    auto job = gpu::make_backend()->p2p_copy(r);
    one_sample(*job, m);
    expect_copies(timed_per_stream(m), 2);
    r.engine = gpu::copy_engine::sm;
    r.read = true;
    // One job at a time, as the runner runs them: a second one made while the first lives
    // finds peer access on, and the first one's end turns it off under the second.
    job.reset();
    job = gpu::make_backend()->p2p_copy(r);
    one_sample(*job, m);
    const auto timed = timed_per_stream(m);
    ASSERT_EQ(timed.size(), 2u);
    for (const auto& t : timed)
      EXPECT_EQ(t.kernels, 1u) << "one copy kernel per direction, inside the timed interval";
  }
  EXPECT_FALSE(m.peer_enabled(2, 3) || m.peer_enabled(3, 2)) << "peer access left enabled";
  EXPECT_TRUE(m.leaks().empty());
}

// GPU 3 is slow: GPU 2's direction ends first. Its trailer must start at its own end, not
// once GPU 3's direction has ended, or GPU 3's last copies would run with nothing coming the
// other way and read high (nvbandwidth keeps the interfering copy running).
TEST(StandinGpuJobs, TheFasterDirectionKeepsCopyingUntilTheSlowerOneEnds) {
  machine_config config;
  config.device_delay = {{}, {}, {}, std::chrono::microseconds{3000}};
  machine m(config);
  auto job = gpu::make_backend()->p2p_copy(bidir_2_3());
  one_sample(*job, m);
  // Each timed stream's first event is its start, its second its end.
  std::map<const void*, std::vector<reached_event>> by_stream;
  for (const auto& e : m.reached_events())
    by_stream[e.stream].push_back(e);
  const reached_event* slow_end = nullptr;
  const reached_event* fast_start = nullptr;
  const void* fast = nullptr;
  for (const auto& [s, events] : by_stream) {
    if (events.size() != 2) continue;
    if (events[0].device == 3) slow_end = &events[1];
    if (events[0].device == 2) {
      fast_start = &events[0];
      fast = s;
    }
  }
  ASSERT_TRUE(slow_end && fast_start) << "a timed stream on each GPU";
  const std::uint64_t done_by_then =
      slow_end->every_stream.at(fast).copies - fast_start->counts.copies;
  EXPECT_GT(done_by_then, loops)
      << "when the slow direction ended, the fast one had done only its timed copies: it was "
         "waiting, and the slow one's tail was timed alone";
  job.reset();
  EXPECT_TRUE(m.leaks().empty());
}

TEST(StandinGpuJobs, AHostCopyJobMakesEverythingWithItsGpuCurrent) {
  machine m;
  {
    auto job = gpu::make_backend()->host_copy(
        {{2}, gpu::host_direction::h2d, gpu::host_memory::pinned, gpu::copy_engine::sm, {}, size});
    one_sample(*job, m);
  }
  ASSERT_FALSE(m.allocations().empty());
  for (const auto& a : m.allocations())
    EXPECT_EQ(a.device, 2) << to_string(a.kind) << " made with GPU " << a.device << " current";
  // Not GPU 0 as well: putting back a thread's first device opens a context there.
  EXPECT_EQ(m.contexts(), (std::set<int>{2}));
  EXPECT_TRUE(m.leaks().empty());
}

TEST(StandinGpuJobs, AHostLatencyJobMakesEverythingWithItsGpuCurrent) {
  machine m;
  {
    gpu::latency_request r;
    r.gpu = 3;
    auto job = gpu::make_backend()->latency(r);
    one_sample(*job, m);
  }
  for (const auto& a : m.allocations())
    EXPECT_EQ(a.device, 3) << to_string(a.kind) << " made with GPU " << a.device << " current";
  EXPECT_EQ(m.contexts(), (std::set<int>{3}));
  EXPECT_TRUE(m.faults().empty());
  EXPECT_TRUE(m.leaks().empty());
}

TEST(StandinGpuJobs, AStagedCopyKeepsEachBufferOnItsOwnGpu) {
  machine m;
  {
    gpu::p2p_copy_request r;
    r.src = 1;
    r.dst = 2;
    r.peer_access = false;
    r.bidir = true;
    r.max_bytes = size;
    auto job = gpu::make_backend()->p2p_copy(r);
    one_sample(*job, m);  // a buffer filled or checked by the other GPU faults: no peer access
  }
  std::vector<int> owners;
  for (const auto& a : m.allocations())
    if (a.kind == memory_kind::device && a.bytes == size) owners.push_back(a.device);
  EXPECT_EQ(owners, (std::vector<int>{1, 2, 2, 1}));  // each direction's source, destination
  EXPECT_EQ(m.contexts(), (std::set<int>{1, 2}));
  EXPECT_TRUE(m.faults().empty());
  EXPECT_TRUE(m.leaks().empty());
}

}  // namespace
}  // namespace gpubench::tests::standin

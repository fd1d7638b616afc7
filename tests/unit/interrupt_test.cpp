// Interrupts: the guard's flag raised by a peer, the watch that ends a run that does not stop,
// and an interrupt inside a group case, which only the group's vote may act on.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include "core/case_state.hpp"
#include "core/interrupt.hpp"
#include "core/runner.hpp"
#include "core/stop_watch.hpp"

using namespace gpubench::core;
using namespace std::chrono_literals;

namespace {

benchmark_def group_case(std::function<void(case_state&)> body) {
  benchmark_def d;
  d.id = "t.group";
  d.kind = host_memory_kind({});
  d.suites = {"memory"};
  d.metric = bandwidth_metric();
  d.sizes = {1024, 4096, 4096};
  d.criteria.min_samples = 50;
  d.criteria.max_samples = 100;
  d.criteria.min_time = 0;
  d.criteria.warmup_samples = 2;
  d.body = std::move(body);
  return d;
}

template <class F>
bool within(std::chrono::milliseconds limit, F done) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end)
    if (done())
      return true;
    else
      std::this_thread::sleep_for(5ms);
  return done();
}

}  // namespace

TEST(InterruptGuard, APeersStopIsNotTheFirstSignal) {
  interrupt_guard guard;
  guard.raise_from_peer();
  EXPECT_TRUE(guard.stopped());
  EXPECT_EQ(guard.signal(), 0);
  // A signal after a peer's stop is still the first: flagged, not the default action (which
  // would end this test binary).
  std::raise(SIGTERM);
  EXPECT_EQ(guard.signal(), SIGTERM);
}

TEST(StopWatch, RaisedAtOnceThenOverdueAfterTheGrace) {
  std::atomic<bool> flag{false}, raised{false}, overdue{false};
  stop_watch watch(
      flag, 300ms, [&] { raised = true; }, [&] { overdue = true; });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(raised);
  flag = true;
  const auto at = std::chrono::steady_clock::now();
  EXPECT_TRUE(within(1000ms, [&] { return raised.load(); }));
  EXPECT_FALSE(overdue);
  EXPECT_TRUE(within(3000ms, [&] { return overdue.load(); }));
  EXPECT_GE(std::chrono::steady_clock::now() - at, 250ms);
}

TEST(StopWatch, ARunThatStopsInTimeIsNotEnded) {
  std::atomic<bool> flag{true}, overdue{false};
  {
    stop_watch watch(flag, 2000ms, {}, [&] { overdue = true; });
    std::this_thread::sleep_for(100ms);
  }  // the run stopped by itself: the watch goes away
  EXPECT_FALSE(overdue);
}

TEST(GroupVote, AnInterruptWaitsForTheVoteAndStopsEveryMemberAtOneSample) {
  // This rank is interrupted before the point: alone it would stop at once; in a group the
  // warm-up runs on and the first vote carries the interrupt.
  std::atomic<bool> flag{false};
  int samples = 0;
  sample_vote seen;
  auto def = group_case([&](case_state& s) {
    s.set_consensus([&](sample_vote mine) {
      seen = mine;
      return mine;
    });
    flag = true;
    s.measure_timed(1024, {1e9, 1, 1}, [&] {
      ++samples;
      return 1.0;
    });
  });
  run_context ctx;
  ctx.interrupt = &flag;
  result_file file;
  runner(ctx, {}).run({&def}, file);
  EXPECT_EQ(samples, 3);  // two warm-up samples and one measured
  EXPECT_TRUE(seen.interrupted);
  ASSERT_EQ(file.results.size(), 1u);
  EXPECT_EQ(file.results[0].status, case_status::failed);
  EXPECT_EQ(file.results[0].points.at(0).stopped_by, "interrupted");
  EXPECT_EQ(file.run.status, run_status::partial);
}

TEST(GroupVote, AnotherMembersInterruptStopsThisOneToo) {
  // Not interrupted here; another member is from the fourth sample on.
  int votes = 0;
  auto def = group_case([&](case_state& s) {
    s.set_consensus([&](sample_vote mine) {
      EXPECT_FALSE(mine.interrupted);
      return sample_vote{mine.stop, ++votes >= 4};
    });
    for (auto bytes : s.sizes())
      s.measure_timed(bytes, {1e9, 1, 1}, [] { return 1.0; });
  });
  auto never = group_case([](case_state&) { FAIL() << "ran after the group stopped"; });
  never.id = "t.never";
  run_context ctx;
  result_file file;
  runner(ctx, {}).run({&def, &never}, file);
  ASSERT_EQ(file.results.size(), 1u);
  EXPECT_EQ(file.results[0].status, case_status::failed);
  ASSERT_EQ(file.results[0].points.size(), 1u);
  EXPECT_EQ(file.results[0].points[0].samples.size(), 4u);
  EXPECT_EQ(file.run.status, run_status::partial);
}

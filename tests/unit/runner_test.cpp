#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "core/case_state.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "core/runner.hpp"

using namespace gpubench::core;

namespace {

benchmark_def synthetic(const std::string& id, std::function<void(case_state&)> body) {
  benchmark_def d;
  d.id = id;
  d.kind = host_memory_kind({});
  d.suites = {"memory"};
  d.metric = bandwidth_metric();
  d.sizes = {1024, 4096, 4096};
  d.criteria.min_samples = 5;
  d.criteria.min_time = 0;
  d.criteria.warmup_samples = 2;
  d.body = std::move(body);
  return d;
}

// Records the order of reporter calls.
struct recording_reporter : reporter {
  std::vector<std::string> events;
  void run_started(const result_file&) override { events.push_back("run"); }
  void case_started(const case_result& c, const run_position&) override {
    events.push_back("case " + c.benchmark);
  }
  void point_finished(const case_result&, const point_result& p) override {
    events.push_back("point " + std::to_string(p.bytes));
  }
  void case_finished(const result_file&, const case_result& c) override {
    events.push_back("done " + to_string(c.status));
  }
  void run_finished(const result_file&) override { events.push_back("end"); }
};

}  // namespace

TEST(Runner, MeasuresKnownDurationsIntoTheMetric) {
  int calls = 0;
  // Each sample "moves" 2e9 bytes in exactly 0.5 s: 4 GB/s, with no timer involved.
  auto def = synthetic("t.known", [&](case_state& s) {
    sample_spec spec;
    spec.bytes = 2e9;
    for (auto bytes : s.sizes())
      s.measure_timed(bytes, spec, [&] {
        ++calls;
        return 0.5;
      });
  });
  run_context ctx;
  recording_reporter rec;
  runner r(ctx, {&rec});
  result_file file;
  r.run({&def}, file);
  ASSERT_EQ(file.results.size(), 1u);
  const auto& c = file.results[0];
  EXPECT_EQ(c.status, case_status::ok);
  ASSERT_EQ(c.points.size(), 3u);  // 1024, 2048, 4096
  for (const auto& p : c.points) {
    EXPECT_DOUBLE_EQ(p.stats.median, 4.0);
    EXPECT_EQ(p.samples.size(), 5u);  // constant samples: stops on noise at min_samples
    EXPECT_EQ(p.warmup, 2u);
    EXPECT_EQ(p.stopped_by, "noise");
  }
  EXPECT_EQ(calls, 3 * (5 + 2));  // warm-up samples run but are not recorded
  EXPECT_EQ(file.run.status, run_status::complete);
  EXPECT_EQ(rec.events, (std::vector<std::string>{"run", "case t.known", "point 1024", "point 2048",
                                                  "point 4096", "done ok", "end"}));
}

TEST(Runner, LatencyIsOneWayPerOperation) {
  auto def = synthetic("t.lat", [](case_state& s) {
    sample_spec spec;
    spec.operations = 10;
    spec.latency_divisor = 2;  // round trips reported one-way
    s.measure_timed(8, spec, [] { return 40e-6; });
  });
  def.metric = latency_metric();
  run_context ctx;
  runner r(ctx, {});
  result_file file;
  r.run({&def}, file);
  EXPECT_DOUBLE_EQ(file.results[0].points[0].stats.median, 2.0);  // 40 us / 10 / 2
}

TEST(Runner, QuickAndOverriddenSizes) {
  std::vector<std::uint64_t> seen;
  auto def = synthetic("t.sizes", [&](case_state& s) { seen = s.sizes(); });
  def.sizes = {4, 64, 16};
  run_context ctx;
  ctx.quick = true;
  result_file file;
  runner(ctx, {}).run({&def}, file);
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{4, 8, 16}));
  ctx.quick = false;
  ctx.sizes = size_range{32, 128};
  runner(ctx, {}).run({&def}, file);
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{32, 64, 128}));
}

TEST(Runner, RequirementSkipAndFailureAreRecordedAndTheRunGoesOn) {
  auto unmet =
      synthetic("t.unmet", [](case_state&) { FAIL() << "body of an unmet benchmark ran"; });
  unmet.requirement = [](const run_context&) {
    return requirement_status::missing("needs a CUDA device: none found");
  };
  auto skips = synthetic("t.skip", [](case_state&) { throw skip_case("no RDMA device"); });
  auto fails = synthetic("t.fail", [](case_state&) { throw std::runtime_error("peer vanished"); });
  auto cases = synthetic("t.cases", [](case_state& s) {
    s.measure_timed(1, {1e9, 1, 1}, [] { return 1.0; });
  });
  cases.cases = [](const run_context&) { return cartesian({{"threads", {1, 2}}}); };
  run_context ctx;
  result_file file;
  runner(ctx, {}).run({&unmet, &skips, &fails, &cases}, file);
  ASSERT_EQ(file.results.size(), 5u);
  EXPECT_EQ(file.results[0].status, case_status::skipped);
  EXPECT_EQ(file.results[0].reason, "needs a CUDA device: none found");
  EXPECT_EQ(file.results[1].status, case_status::skipped);
  EXPECT_EQ(file.results[1].reason, "no RDMA device");
  EXPECT_EQ(file.results[2].status, case_status::failed);
  EXPECT_EQ(file.results[2].reason, "peer vanished");
  EXPECT_EQ(file.results[3].params, (nlohmann::json{{"threads", 1}}));
  EXPECT_EQ(file.results[4].params, (nlohmann::json{{"threads", 2}}));
  EXPECT_EQ(file.run.status, run_status::complete);
}

// A benchmark whose planning refuses the run (an srun step without a PMI, a launch whose
// world does not match: usage_error from its cases) stops it before any reporter hears of
// it: no result file for a run that measured nothing.
TEST(Runner, APlanningRefusalTellsNoReporter) {
  auto ran = synthetic("t.ran", [](case_state&) { FAIL() << "a body ran before the refusal"; });
  auto refused = synthetic("t.refused", [](case_state&) { FAIL() << "refused body ran"; });
  refused.cases = [](const run_context&) -> std::vector<nlohmann::json> {
    throw usage_error("srun started 2 tasks without a PMI");
  };
  run_context ctx;
  recording_reporter rec;
  result_file file;
  EXPECT_THROW(runner(ctx, {&rec}).run({&ran, &refused}, file), usage_error);
  EXPECT_TRUE(rec.events.empty()) << rec.events.front();
  EXPECT_TRUE(file.results.empty());
}

TEST(Runner, InterruptKeepsMeasuredPointsAndStops) {
  std::atomic<bool> flag{false};
  int samples = 0;
  auto def = synthetic("t.int", [&](case_state& s) {
    for (auto bytes : s.sizes())
      s.measure_timed(bytes, {1e9, 1, 1}, [&] {
        // The signal arrives during the third point.
        if (bytes == 4096 && ++samples == 3) flag = true;
        return 1.0;
      });
  });
  auto never = synthetic("t.never", [](case_state&) { FAIL() << "ran after the interrupt"; });
  run_context ctx;
  ctx.interrupt = &flag;
  result_file file;
  runner(ctx, {}).run({&def, &never}, file);
  ASSERT_EQ(file.results.size(), 1u);
  const auto& c = file.results[0];
  EXPECT_EQ(c.status, case_status::failed);
  EXPECT_NE(c.reason.find("interrupted"), std::string::npos);
  ASSERT_EQ(c.points.size(), 3u);  // two whole points and the interrupted one's samples
  EXPECT_EQ(c.points[2].stopped_by, "interrupted");
  EXPECT_EQ(file.run.status, run_status::partial);
}

TEST(Runner, ConsensusStopsEveryRankTogether) {
  int agree_calls = 0;
  auto def = synthetic("t.cons", [&](case_state& s) {
    // This rank would stop at 5 samples; the collective decision holds out until 8.
    s.set_consensus([&](sample_vote) { return sample_vote{++agree_calls >= 8, false}; });
    s.measure_timed(1, {1e9, 1, 1}, [] { return 1.0; });
  });
  run_context ctx;
  result_file file;
  runner(ctx, {}).run({&def}, file);
  EXPECT_EQ(file.results[0].points[0].samples.size(), 8u);
}

TEST(Runner, NonPositiveDurationFailsTheCase) {
  auto def = synthetic("t.zero", [](case_state& s) {
    s.measure_timed(1, {1, 1, 1}, [] { return 0.0; });
  });
  run_context ctx;
  result_file file;
  runner(ctx, {}).run({&def}, file);
  EXPECT_EQ(file.results[0].status, case_status::failed);
  EXPECT_NE(file.results[0].reason.find("no usable duration"), std::string::npos);
}

namespace {

// Two node-local benchmarks and a collective after them, as a launch runs them.
struct shared_node_run {
  int local_bodies = 0, group_bodies = 0;
  std::vector<double> meetings;  // the limits the ranks met with
  benchmark_def local_a, local_b, group;
  shared_node_run() {
    local_a = synthetic("t.local.a", [this](case_state&) { ++local_bodies; });
    local_b = synthetic("t.local.b", [this](case_state&) { ++local_bodies; });
    group = synthetic("t.group", [this](case_state&) { ++group_bodies; });
    group.kind = collective_kind("allreduce", {"nodes"});
  }
  result_file run(int rank) {
    run_context ctx;
    ctx.shared_node = node_share{rank, 0, "n1", 4, [this](double s, launch_stop*) {
                                   meetings.push_back(s);
                                   return true;
                                 }};
    result_file file;
    runner(ctx, {}).run({&local_a, &local_b, &group}, file);
    return file;
  }
};

}  // namespace

TEST(Runner, NodeLocalBenchmarksRunOncePerNodeByItsLeader) {
  shared_node_run leader;
  const auto led = leader.run(0);
  EXPECT_EQ(leader.local_bodies, 2);
  EXPECT_EQ(leader.group_bodies, 1);
  ASSERT_EQ(led.results.size(), 3u);
  EXPECT_EQ(led.results[0].context.at("measured_by"),
            (nlohmann::json{{"rank", 0}, {"node", "n1"}, {"ranks_on_node", 4}}));
  EXPECT_FALSE(led.results[2].context.contains("measured_by"));  // a collective: every rank

  shared_node_run other;
  const auto skipped = other.run(2);
  EXPECT_EQ(other.local_bodies, 0);
  EXPECT_EQ(other.group_bodies, 1);
  EXPECT_EQ(skipped.results[0].status, case_status::skipped);
  EXPECT_NE(skipped.results[0].reason.find("measured once per node: rank 0 measures it for node "
                                           "n1, and rank 2 (one of its 4 ranks) skips it"),
            std::string::npos)
      << skipped.results[0].reason;
  EXPECT_EQ(skipped.results[2].status, case_status::ok);

  // Leader and follower meet once, before the collective, with the same limit: twice the two
  // local cases' budgets (3 sizes x 5 s each) plus a minute.
  ASSERT_EQ(leader.meetings.size(), 1u);
  ASSERT_EQ(other.meetings.size(), 1u);
  EXPECT_DOUBLE_EQ(leader.meetings[0], other.meetings[0]);
  EXPECT_DOUBLE_EQ(leader.meetings[0], 2 * (2 * 3 * 5.0) + 60);
}

TEST(Runner, NoMeetingWithoutNodeLocalCasesBeforeACollective) {
  shared_node_run r;
  run_context ctx;
  ctx.shared_node = node_share{1, 0, "n1", 2, [&r](double s, launch_stop*) {
                                 r.meetings.push_back(s);
                                 return true;
                               }};
  result_file file;
  runner(ctx, {}).run({&r.group, &r.local_a}, file);
  EXPECT_TRUE(r.meetings.empty());
}

TEST(Progress, EstimateStartsAsABoundAndScalesByWhatFinishedCasesTook) {
  progress_estimate e({10, 0, 20, 30});
  EXPECT_FALSE(e.calibrated());
  EXPECT_DOUBLE_EQ(e.left_s(), 60);
  e.finished(1, 0);  // a skipped case says nothing about the others
  EXPECT_FALSE(e.calibrated());
  e.finished(0, 2.5);  // a quarter of its budget
  EXPECT_TRUE(e.calibrated());
  EXPECT_DOUBLE_EQ(e.left_s(), 50 * 0.25);
  EXPECT_EQ(progress_time_text(65, e), "1:05 elapsed, about 13 s left");
  e.finished(2, 20);
  e.finished(3, 30);
  EXPECT_DOUBLE_EQ(e.left_s(), 0);
  EXPECT_EQ(format_duration(3725), "1:02:05");
  EXPECT_EQ(format_duration(-1), "0 s");
}

TEST(Progress, CaseBudgetIsItsSizesTimesThePointLimit) {
  auto def = synthetic("t.budget", [](case_state&) {});
  def.sizes = {4, 64, 16};
  def.criteria.timeout = 2;
  run_context ctx;
  EXPECT_DOUBLE_EQ(case_budget_s(def, ctx), 5 * 2.0);  // 4..64: 5 sizes
  ctx.quick = true;
  EXPECT_DOUBLE_EQ(case_budget_s(def, ctx), 3 * 2.0);
}

TEST(Runner, AMeetingThatSaysARankWasInterruptedEndsTheRun) {
  shared_node_run r;
  run_context ctx;
  ctx.shared_node = node_share{1, 0, "n1", 2, [](double, launch_stop*) { return false; }};
  result_file file;
  runner(ctx, {}).run({&r.local_a, &r.group}, file);
  EXPECT_EQ(r.group_bodies, 0);
  EXPECT_EQ(file.run.status, run_status::partial);
}

// The collective driver as nccl-tests times and checks: the data check runs by default and a
// wrong element fails the case naming the rank, the element and the values; every sample holds
// at least 20 operations back to back, fewer only under the sample's limit, and then the point
// says so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmarks/collectives/collective_driver.hpp"
#include "benchmarks/collectives/data_check.hpp"
#include "core/case_state.hpp"

namespace gpubench::benchmarks::collectives {
namespace {

// Two ranks in this process (as NCCL over the local GPUs) whose allreduce really sums float32
// host buffers; each call "takes" `per_op` seconds, and each call's time is reported.
class summing_backend final : public transports::collective_backend {
 public:
  double per_op = 1e-3;
  std::vector<int> iters_seen;

  int ranks() const override { return 2; }
  std::vector<int> local_ranks() const override { return {0, 1}; }
  void prepare(std::size_t send_bytes, std::size_t recv_bytes) override {
    for (auto& b : m_send)
      b.assign(send_bytes, std::byte{0});
    for (auto& b : m_recv)
      b.assign(recv_bytes, std::byte{0});
  }
  void write(transports::buffer_role role, std::size_t i,
             std::span<const std::byte> data) override {
    auto& b = role == transports::buffer_role::send ? m_send[i] : m_recv[i];
    std::memcpy(b.data(), data.data(), data.size());
  }
  void read(transports::buffer_role role, std::size_t i, std::span<std::byte> out) override {
    const auto& b = role == transports::buffer_role::send ? m_send[i] : m_recv[i];
    std::memcpy(out.data(), b.data(), out.size());
  }
  double run(const transports::call_args& args, int iters) override {
    iters_seen.push_back(iters);
    for (std::uint64_t e = 0; e < args.count; ++e) {
      float a = 0, b = 0;
      std::memcpy(&a, m_send[0].data() + e * 4, 4);
      std::memcpy(&b, m_send[1].data() + e * 4, 4);
      const float sum = a + b;
      for (auto& r : m_recv)
        std::memcpy(r.data() + e * 4, &sum, 4);
    }
    return per_op * iters;
  }
  double run_each(const transports::call_args& args, int iters,
                  std::vector<double>& per_call) override {
    per_call.assign(static_cast<std::size_t>(iters), per_op);
    return run(args, iters);
  }
  nlohmann::json describe(transports::collective_call) const override { return {}; }

 private:
  std::vector<std::byte> m_send[2], m_recv[2];
};

core::benchmark_def small_def() {
  core::benchmark_def def;
  def.id = "t.coll";
  def.kind = core::host_memory_kind({});
  def.metric = core::bandwidth_metric();
  def.sizes = {4096, 4096, 4096};
  def.criteria.min_samples = 3;
  def.criteria.min_time = 0;
  def.criteria.timeout = 1;
  def.criteria.warmup_samples = 1;
  return def;
}

// An allreduce case of small_def() on the summing backend, one process.
struct one_case {
  core::benchmark_def def = small_def();
  core::run_context ctx;
  core::case_result result;
  core::case_state state{def, ctx, result};
  summing_backend backend;
  transports::solo_group group;

  void measure(const measure_request& req) {
    measure_collective(state, *make_allreduce(), backend, group, req, {});
  }
};

// Sets an environment variable for one test and restores it.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    ::setenv(name, value, 1);
  }
  ~scoped_env() {
    if (m_old.empty())
      ::unsetenv(m_name);
    else
      ::setenv(m_name, m_old.c_str(), 1);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* m_name;
  std::string m_old;
};

TEST(CollectiveCheck, OnByDefaultAndPasses) {
  one_case c;
  ASSERT_TRUE(measure_request{}.check);
  c.measure(measure_request{});
  ASSERT_EQ(c.result.points.size(), 1u);
  EXPECT_EQ(c.result.points[0].extra.at("check"), "passed");
}

TEST(CollectiveCheck, PlantedCorruptionNamesRankIndexAndValues) {
  one_case c;
  const scoped_env plant(corrupt_check_env, "1:37");
  try {
    c.measure(measure_request{});
    FAIL() << "a corrupted element passed the check";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1 wrong element(s) on 1 rank(s)"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 1, element 37"), std::string::npos) << what;
    // Element 37 of the sum of ranks 0 and 1: (0*7 + 37*13 + 1) % 17 + (1*7 + 37*13 + 1) % 17.
    const double want = static_cast<double>((37 * 13 + 1) % 17 + (7 + 37 * 13 + 1) % 17);
    EXPECT_NE(what.find(fmt::format("expected {:g}", want)), std::string::npos) << what;
    EXPECT_NE(what.find(fmt::format("got {:g}", want + 1000)), std::string::npos) << what;
  }
  EXPECT_TRUE(c.result.points.empty()) << "no point is kept from a size that failed its check";
}

TEST(CollectiveCheck, NoCheckRunsNoCheckedCall) {
  one_case c;
  const scoped_env plant(corrupt_check_env, "1:37");  // read by the check only
  measure_request req;
  req.check = false;
  c.measure(req);
  ASSERT_EQ(c.result.points.size(), 1u);
  EXPECT_FALSE(c.result.points[0].extra.contains("check"));
}

TEST(CollectiveCheck, HookValueIsParsedStrictly) {
  const auto p = parse_planted_corruption("3:1024");
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.index, 1024u);
  for (const char* bad : {"", "3", "3:", ":4", "a:1", "1:-2", "1:2:3"})
    EXPECT_THROW(parse_planted_corruption(bad), std::invalid_argument) << bad;
}

TEST(CollectiveSamples, TwentyOperationsBackToBackAtLeast) {
  // 1 ms per operation: 1 ms would be one operation, nccl-tests times 20.
  one_case c;
  c.measure(measure_request{});
  ASSERT_EQ(c.result.points.size(), 1u);
  const auto& p = c.result.points[0];
  EXPECT_EQ(p.extra.at("iterations_per_sample"), 20);
  EXPECT_FALSE(p.extra.contains("min_iterations"));
  EXPECT_NEAR(p.extra.at("time_us").get<double>(), 1000.0, 1e-6);
  EXPECT_NEAR(p.extra.at("op_time_us_max").get<double>(), 1000.0, 1e-6);
  EXPECT_NEAR(p.extra.at("op_time_us_p99").get<double>(), 1000.0, 1e-6);
  EXPECT_NEAR(p.extra.at("op_time_us_min").get<double>(), 1000.0, 1e-6);
  // Check, untimed and sizing calls are single; every timed sample is the stream of 20.
  ASSERT_GE(c.backend.iters_seen.size(), 4u);
  for (std::size_t i = 3; i < c.backend.iters_seen.size(); ++i)
    EXPECT_EQ(c.backend.iters_seen[i], 20) << "call " << i;
}

TEST(CollectiveSamples, CutBelowTwentyOnlyUnderTheSampleLimitAndMarked) {
  one_case c;
  c.backend.per_op = 0.5;  // a slow link: 20 operations would take 10 s
  measure_request req;
  req.sample_limit_s = 2;
  c.measure(req);
  ASSERT_EQ(c.result.points.size(), 1u);
  const auto& p = c.result.points[0];
  EXPECT_EQ(p.extra.at("iterations_per_sample"), 4);
  EXPECT_EQ(p.extra.at("min_iterations"), 20);
}

}  // namespace
}  // namespace gpubench::benchmarks::collectives

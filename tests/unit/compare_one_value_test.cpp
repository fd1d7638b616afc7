// compare on points of one value each (what an imported run holds): the sign test across a
// sweep and the single-value bound, on made-up runs and on the real DGX H100 pair (NVLink on
// against NVLink off) where the shared folder of real outputs is present.
#include "reports/compare/sign_test.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/compare/formats.hpp"
#include "tests/unit/import_fixtures.hpp"

namespace gpubench::reports::compare {
namespace {

// One case per entry of `values` (one value per size), sizes 1 MiB, 2 MiB, ...
core::result_file one_value_run(const std::vector<double>& values, std::string benchmark = "x.bw") {
  core::result_file f;
  f.run.status = core::run_status::complete;
  core::case_result c;
  c.benchmark = std::move(benchmark);
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  std::uint64_t bytes = 1 << 20;
  for (double v : values) {
    core::point_result p;
    p.bytes = bytes;
    bytes *= 2;
    p.samples = {v};
    p.stats.median = v;
    c.points.push_back(p);
  }
  f.results.push_back(c);
  return f;
}

TEST(compare_one_value, sign_test_p_values) {
  EXPECT_NEAR(sign_test_two_sided_p(8, 0), 2.0 / 256, 1e-12);
  EXPECT_NEAR(sign_test_two_sided_p(0, 8), 2.0 / 256, 1e-12);
  EXPECT_NEAR(sign_test_two_sided_p(4, 0), 0.125, 1e-12);
  EXPECT_NEAR(sign_test_two_sided_p(7, 1), 2.0 * 9 / 256, 1e-12);
  EXPECT_DOUBLE_EQ(sign_test_two_sided_p(3, 3), 1.0);
  EXPECT_DOUBLE_EQ(sign_test_two_sided_p(0, 0), 1.0);
  EXPECT_LT(sign_test_two_sided_p(1000, 0), 1e-100);
}

TEST(compare_one_value, a_sweep_lower_at_every_size_is_slower_by_the_sign_test) {
  const auto base = one_value_run({10, 10, 10, 10, 10, 10, 10, 10});
  const auto fresh = one_value_run({8, 8, 8, 8, 8, 8, 8, 8});  // 20 % lower: within 2x
  const comparison c = compare_results(base, fresh, {});
  ASSERT_EQ(c.rows.size(), 8u);
  EXPECT_TRUE(c.regressed());
  EXPECT_EQ(c.count(verdict::slower), 8u);
  EXPECT_EQ(c.rows[0].decided_by, "sign test");
  EXPECT_NE(c.rows[0].note.find("8 of 8 lower, p = 0.0078"), std::string::npos) << c.rows[0].note;
  const std::string text = format_text(c, false);
  EXPECT_NE(text.find("FAIL: 8 regressions"), std::string::npos) << text;
  EXPECT_NE(text.find("sign p=0.0078"), std::string::npos) << text;
}

TEST(compare_one_value, a_short_sweep_within_the_bound_stays_noisy) {
  // 4 of 4 lower: p = 0.125, and 20 % is within the 2x bound: nothing decides.
  const comparison c =
      compare_results(one_value_run({10, 10, 10, 10}), one_value_run({8, 8, 8, 8}), {});
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(c.count(verdict::noisy), 4u);
  EXPECT_TRUE(c.rows[0].decided_by.empty());
  EXPECT_NE(c.rows[0].note.find("not significant"), std::string::npos) << c.rows[0].note;
}

TEST(compare_one_value, one_value_beyond_the_wide_bound_decides_alone) {
  // One size of four falls 3x, the others are unchanged: the sign test (1 of 1) cannot decide,
  // the bound does.
  const comparison c =
      compare_results(one_value_run({10, 10, 10, 10}), one_value_run({10, 10, 10, 3.3}), {});
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[3].result, verdict::slower);
  EXPECT_EQ(c.rows[3].decided_by, "single-value bound");
  EXPECT_NE(c.rows[3].note.find("3.03x lower, beyond 2x"), std::string::npos) << c.rows[3].note;
  EXPECT_EQ(c.rows[0].result, verdict::same);
  EXPECT_EQ(c.regressions(), 1u);
  // Just inside the bound (1.9x) it is noisy.
  const comparison inside =
      compare_results(one_value_run({10, 10, 10, 10}), one_value_run({10, 10, 10, 5.3}), {});
  EXPECT_EQ(inside.rows[3].result, verdict::noisy);
  EXPECT_FALSE(inside.regressed());
}

TEST(compare_one_value, a_sweep_higher_everywhere_is_faster_and_a_point_against_it_noisy) {
  // 7 of 8 higher by 30 %, one 30 % lower: p = 0.07 > 0.05 with 8, so use 12 points (11 of 12).
  std::vector<double> base(12, 10.0), fresh(12, 13.0);
  fresh[5] = 7.0;
  const comparison c = compare_results(one_value_run(base), one_value_run(fresh), {});
  EXPECT_EQ(c.count(verdict::faster), 11u);
  EXPECT_EQ(c.rows[5].result, verdict::noisy);  // moved against its sweep, within the bound
  EXPECT_NE(c.rows[5].note.find("the other way"), std::string::npos) << c.rows[5].note;
  EXPECT_FALSE(c.regressed());
}

TEST(compare_one_value, sweeps_are_per_benchmark) {
  // A benchmark lower everywhere does not make another benchmark's single drop significant.
  auto base = one_value_run(std::vector<double>(8, 10.0), "a.bw");
  auto fresh = one_value_run(std::vector<double>(8, 8.0), "a.bw");
  base.results.push_back(one_value_run({10, 10}, "b.bw").results[0]);
  fresh.results.push_back(one_value_run({10, 8}, "b.bw").results[0]);
  const comparison c = compare_results(base, fresh, {});
  ASSERT_EQ(c.rows.size(), 10u);
  EXPECT_EQ(c.rows[9].benchmark, "b.bw");
  EXPECT_EQ(c.rows[9].result, verdict::noisy);
  EXPECT_EQ(c.count(verdict::slower), 8u);
}

TEST(compare_one_value, json_says_which_test_decided) {
  const comparison c = compare_results(one_value_run(std::vector<double>(8, 10.0)),
                                       one_value_run(std::vector<double>(8, 8.0)), {});
  const auto j = to_json(c);
  EXPECT_EQ(j["rows"][0]["decided_by"], "sign test");
  EXPECT_NEAR(j["rows"][0]["sign_test_p"].get<double>(), 0.0078125, 1e-9);
}

// The DGX H100 all_reduce with NVLink (nccl-tests-6, ~370 GB/s) against the same run with
// NCCL_P2P_DISABLE=1 (nccl-tests-7, ~24 GB/s): every point SLOWER, exit 1 in the CLI.
TEST(compare_one_value, real_nvlink_on_against_off_is_slower) {
  const auto folder = test_import::real_folder();
  if (!folder)
    GTEST_SKIP() << "no real tool outputs: " << GPUBENCH_SOURCE_ROOT
                 << "/../shared/fixtures/real is absent (a checkout without the shared folder)";
  const auto load = [&](const std::string& name) {
    import::import_options o;
    o.name = name;
    o.operation = "all_reduce";  // the trimmed logs name no operation
    return import::import_text(test_import::real_output(*folder / name), o);
  };
  const comparison c = compare_results(load("nccl-tests-6.txt"), load("nccl-tests-7.txt"), {},
                                       "nccl-tests-6.txt", "nccl-tests-7.txt");
  ASSERT_EQ(c.rows.size(), 8u);  // 4 sizes, out-of-place and in-place
  EXPECT_EQ(c.count(verdict::slower), 8u);
  EXPECT_TRUE(c.regressed());
  for (const auto& r : c.rows) {
    EXPECT_EQ(r.decided_by, "sign test") << row_label(r);
    EXPECT_NE(r.note.find("8 of 8 lower"), std::string::npos) << r.note;
    EXPECT_NE(r.note.find("beyond the 2x bound"), std::string::npos) << r.note;
  }
  EXPECT_NE(format_text(c, false).find("SLOWER"), std::string::npos);
}

}  // namespace
}  // namespace gpubench::reports::compare

// The comparison model: alignment, added/removed/lost handling, verdicts and thresholds.
#include "reports/compare/comparison.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/statistics.hpp"

namespace gpubench::reports::compare {
namespace {

// Twelve samples around `centre`, spread by +-spread (a fixed, repeatable pattern).
std::vector<double> samples_around(double centre, double spread) {
  const double pattern[] = {0, 0.5, -0.5, 1, -1, 0.25, -0.25, 0.75, -0.75, 0.1, -0.1, 0};
  std::vector<double> out;
  for (double p : pattern)
    out.push_back(centre + p * spread);
  return out;
}

core::point_result point(std::uint64_t bytes, std::vector<double> samples) {
  core::point_result p;
  p.bytes = bytes;
  p.stats = core::summarize(samples);
  p.samples = std::move(samples);
  return p;
}

core::case_result bandwidth_case(const std::string& id, nlohmann::json params) {
  core::case_result c;
  c.benchmark = id;
  c.params = std::move(params);
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  return c;
}

core::case_result latency_case(const std::string& id) {
  core::case_result c = bandwidth_case(id, {{"streams", 1}});
  c.metric = "latency";
  c.unit = "us";
  c.better = "lower";
  return c;
}

core::result_file two_case_file(double bw_scale, double lat_scale) {
  core::result_file f;
  core::case_result bw = bandwidth_case("memory.host.copy", {{"threads", 1}});
  bw.points.push_back(point(4096, samples_around(10 * bw_scale, 0.2)));
  bw.points.push_back(point(1 << 20, samples_around(20 * bw_scale, 0.2)));
  f.results.push_back(bw);
  core::case_result lat = latency_case("net.tcp.latency");
  lat.points.push_back(point(64, samples_around(30 * lat_scale, 0.5)));
  f.results.push_back(lat);
  return f;
}

TEST(comparison, identical_files_have_no_regression) {
  const core::result_file f = two_case_file(1, 1);
  const comparison c = compare_results(f, f, {});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(c.count(verdict::same), 3u);
  for (const auto& r : c.rows) {
    ASSERT_TRUE(r.ratio);
    EXPECT_DOUBLE_EQ(*r.ratio, 1.0);
  }
}

TEST(comparison, twenty_percent_slower_latency_is_flagged_alone) {
  const comparison c = compare_results(two_case_file(1, 1), two_case_file(1, 1.2), {});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.regressions(), 1u);
  const comparison_row& r = c.rows[2];
  EXPECT_EQ(r.benchmark, "net.tcp.latency");
  EXPECT_EQ(r.result, verdict::slower);
  ASSERT_TRUE(r.change);
  EXPECT_NEAR(*r.change, -0.2, 1e-9);  // latency up 20% is 20% worse
  EXPECT_TRUE(r.test->significant);
}

TEST(comparison, lower_bandwidth_is_slower_and_higher_is_faster) {
  const comparison slower = compare_results(two_case_file(1, 1), two_case_file(0.8, 1), {});
  EXPECT_EQ(slower.count(verdict::slower), 2u);
  const comparison faster = compare_results(two_case_file(1, 1), two_case_file(1.3, 1), {});
  EXPECT_EQ(faster.count(verdict::faster), 2u);
  EXPECT_FALSE(faster.regressed());
}

TEST(comparison, noisy_samples_with_a_shifted_median_are_noisy) {
  core::result_file base, fresh;
  core::case_result b = bandwidth_case("memory.host.copy", {});
  core::case_result n = b;
  // Medians 10 and 8.5 (15% lower), but the samples overlap almost entirely.
  b.points.push_back(point(64, {2, 4, 6, 10, 14, 16, 18}));
  n.points.push_back(point(64, {1.5, 3.5, 6.5, 8.5, 13, 15.5, 18.5}));
  base.results.push_back(b);
  fresh.results.push_back(n);
  const comparison c = compare_results(base, fresh, {});
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].result, verdict::noisy);
  EXPECT_FALSE(c.regressed());
  EXPECT_NE(c.rows[0].note.find("not significant"), std::string::npos) << c.rows[0].note;
}

TEST(comparison, too_few_samples_are_noisy_and_say_so) {
  core::result_file base, fresh;
  core::case_result b = bandwidth_case("memory.host.copy", {});
  core::case_result n = b;
  b.points.push_back(point(64, {10, 10.1}));
  n.points.push_back(point(64, {5, 5.1}));
  base.results.push_back(b);
  fresh.results.push_back(n);
  const comparison c = compare_results(base, fresh, {});
  EXPECT_EQ(c.rows[0].result, verdict::noisy);
  EXPECT_TRUE(c.rows[0].test->too_few_samples);
  EXPECT_NE(c.rows[0].note.find("too few samples"), std::string::npos) << c.rows[0].note;
}

TEST(comparison, threshold_per_benchmark_overrides_the_global_one) {
  compare_options o;
  o.threshold.per_benchmark["net.tcp.latency"] = 0.25;
  const comparison c = compare_results(two_case_file(1, 1), two_case_file(1, 1.2), o);
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(c.rows[2].result, verdict::same);
  EXPECT_DOUBLE_EQ(c.rows[2].threshold, 0.25);
  EXPECT_DOUBLE_EQ(c.rows[0].threshold, 0.05);
}

TEST(comparison, threshold_prefixes_and_exact_ids) {
  thresholds t;
  t.global = 0.05;
  t.per_benchmark["net.*"] = 0.2;
  t.per_benchmark["net.tcp.*"] = 0.1;
  t.per_benchmark["net.tcp.latency"] = 0.3;
  EXPECT_DOUBLE_EQ(t.for_benchmark("net.tcp.latency"), 0.3);
  EXPECT_DOUBLE_EQ(t.for_benchmark("net.tcp.bandwidth"), 0.1);
  EXPECT_DOUBLE_EQ(t.for_benchmark("net.rdma.latency"), 0.2);
  EXPECT_DOUBLE_EQ(t.for_benchmark("gpu.h2d"), 0.05);
}

TEST(comparison, added_removed_and_lost_cases_are_listed) {
  core::result_file base = two_case_file(1, 1), fresh = two_case_file(1, 1);
  // BASE only: a case NEW no longer has.
  core::case_result gone = bandwidth_case("gpu.h2d", {{"gpu", 0}});
  gone.points.push_back(point(64, samples_around(20, 1)));
  base.results.push_back(gone);
  // NEW only: a new case.
  core::case_result fresh_case = bandwidth_case("gpu.d2h", {{"gpu", 0}});
  fresh_case.points.push_back(point(64, samples_around(20, 1)));
  fresh.results.push_back(fresh_case);
  // NEW skipped a case BASE measured: a regression.
  fresh.results[1].status = core::case_status::skipped;
  fresh.results[1].reason = "no peer";
  fresh.results[1].points.clear();
  // NEW has a size BASE did not.
  fresh.results[0].points.push_back(point(1 << 30, samples_around(25, 0.2)));

  const comparison c = compare_results(base, fresh, {});
  EXPECT_EQ(c.count(verdict::removed), 1u);
  EXPECT_EQ(c.count(verdict::added), 2u);
  EXPECT_EQ(c.count(verdict::lost), 1u);
  EXPECT_EQ(c.regressions(), 1u);
  for (const auto& r : c.rows)
    if (r.result == verdict::lost) {
      EXPECT_NE(r.note.find("no peer"), std::string::npos);
    }

  compare_options strict;
  strict.fail_on_removed = true;
  EXPECT_EQ(compare_results(base, fresh, strict).regressions(), 2u);
}

TEST(comparison, both_sides_skipped_is_unmeasured_not_a_regression) {
  core::result_file base, fresh;
  core::case_result c = bandwidth_case("gpu.h2d", {});
  c.status = core::case_status::skipped;
  c.reason = "no GPU";
  base.results.push_back(c);
  fresh.results.push_back(c);
  const comparison out = compare_results(base, fresh, {});
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(out.rows[0].result, verdict::unmeasured);
  EXPECT_FALSE(out.regressed());
}

TEST(comparison, a_partial_run_is_a_warning) {
  core::result_file base = two_case_file(1, 1), fresh = two_case_file(1, 1);
  base.run.status = core::run_status::complete;
  fresh.run.status = core::run_status::partial;
  const comparison c = compare_results(base, fresh, {}, "base.json", "new.json");
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0].rfind("new.json: the run is partial", 0), 0u) << c.warnings[0];
  fresh.run.status = core::run_status::complete;
  EXPECT_TRUE(compare_results(base, fresh, {}).warnings.empty());
}

TEST(comparison, duplicate_cases_are_bad_input) {
  core::result_file f = two_case_file(1, 1);
  f.results.push_back(f.results[0]);
  EXPECT_THROW(compare_results(f, two_case_file(1, 1), {}), core::input_error);
}

TEST(comparison, severity_puts_regressions_first) {
  const comparison c = compare_results(two_case_file(1, 1), two_case_file(1, 1.2), {});
  const auto rows = by_severity(c.rows);
  EXPECT_EQ(rows.front().result, verdict::slower);
  EXPECT_EQ(row_label(rows.front()), "net.tcp.latency {streams=1} @ 64 B");
}

}  // namespace
}  // namespace gpubench::reports::compare

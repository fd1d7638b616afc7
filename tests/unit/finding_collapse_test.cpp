// collective.busbw_collapse: a cliff in the middle of a sweep (down by 2x or more from one size
// to the next, staying down for 2 sizes or more), on made-up sweeps at both sides of the
// thresholds and on the real all-to-all that collapses from 8 MiB (nccl-tests-9).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/page_one/findings/rules.hpp"
#include "tests/unit/import_fixtures.hpp"

namespace gpubench::reports::page_one::findings {
namespace {

// One all-to-all case, sizes 1 MiB, 2 MiB, ... with these busbw values.
core::result_file sweep(const std::vector<double>& busbw, bool in_place = false) {
  core::case_result c;
  c.benchmark = "coll.alltoall";
  c.kind = core::collective_kind("alltoall", {});
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  c.params = {{"backend", "nccl"}, {"nodes", 2}, {"ranks", 16}, {"in_place", in_place}};
  std::uint64_t bytes = 1 << 20;
  for (double b : busbw) {
    core::point_result p;
    p.bytes = bytes;
    bytes *= 2;
    p.stats.median = b;
    p.extra["busbw"] = b;
    c.points.push_back(p);
  }
  core::result_file f;
  f.results.push_back(c);
  return f;
}

TEST(FindingCollapse, ACliffThatRecoversIsFound) {
  const auto found = collapse_rule(sweep({10, 20, 30, 1.5, 2, 3, 25, 36}), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "collective.busbw_collapse");
  EXPECT_EQ(found[0].level, severity::warning);
  EXPECT_NE(found[0].evidence.find("busbw 30.00 GB/s at 4M, then 1.50 GB/s at 8M"),
            std::string::npos)
      << found[0].evidence;
  EXPECT_NE(found[0].evidence.find("for 3 sizes, up to 32M"), std::string::npos)
      << found[0].evidence;
  EXPECT_NE(found[0].evidence.find("back to 25.00 GB/s at 64M"), std::string::npos)
      << found[0].evidence;
  EXPECT_NE(found[0].check.find("NCCL_DEBUG=INFO"), std::string::npos) << found[0].check;
}

TEST(FindingCollapse, OneSizeDownOrLessThanHalfIsNot) {
  EXPECT_TRUE(collapse_rule(sweep({10, 20, 30, 1.5, 28, 30}), {}).empty());   // one size
  EXPECT_TRUE(collapse_rule(sweep({10, 20, 30, 16, 15.5, 30}), {}).empty());  // 0.53x
  EXPECT_EQ(collapse_rule(sweep({10, 20, 30, 15, 15, 30}), {}).size(), 1u);   // 0.5x
  EXPECT_TRUE(collapse_rule(sweep({10, 20, 30, 1, 1}, true), {}).empty());    // in-place
  rule_options strict;
  strict.collapse_sizes = 3;
  EXPECT_TRUE(collapse_rule(sweep({10, 20, 30, 1.5, 2, 25}), strict).empty());
}

TEST(FindingCollapse, ACliffToTheEndSaysItDoesNotRecover) {
  const auto found = collapse_rule(sweep({10, 20, 8, 7, 6}), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].evidence.find("does not recover"), std::string::npos) << found[0].evidence;
}

TEST(FindingCollapse, RealAlltoallCollapsesFrom8MiB) {
  const auto folder = test_import::real_folder();
  if (!folder || !std::filesystem::exists(*folder / ".." / "real-new" / "nccl-tests-9.txt"))
    GTEST_SKIP() << "no real tool outputs: " << GPUBENCH_SOURCE_ROOT
                 << "/../shared/fixtures/real-new/nccl-tests-9.txt is absent";
  import::import_options o;
  o.name = "nccl-tests-9.txt";
  o.operation = "alltoall";
  const auto f = import::import_text(
      test_import::real_output(*folder / ".." / "real-new" / "nccl-tests-9.txt"), o);
  const auto found = collapse_rule(f, {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].evidence.find("at 8M, then"), std::string::npos) << found[0].evidence;
  EXPECT_NE(found[0].evidence.find("at 16M"), std::string::npos) << found[0].evidence;
  // The largest sizes recover, so the rule on the largest size alone says nothing.
  EXPECT_TRUE(busbw_falls_rule(f, {}).empty());
}

}  // namespace
}  // namespace gpubench::reports::page_one::findings

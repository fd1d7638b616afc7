// The headline's collective row: the validated out-of-place figure (in-place only when it is
// all there is), and busbw in Gb/s per NIC only where the NIC count is known.
#include <gtest/gtest.h>

#include <string>

#include "core/result.hpp"
#include "reports/model/references.hpp"
#include "reports/page_one/headline_table.hpp"

namespace gpubench::reports::page_one {
namespace {

core::case_result collective(const std::string& op, bool in_place, double busbw, int nodes,
                             bool checked = true) {
  core::case_result c;
  c.benchmark = "nccl_tests." + op + "_perf";
  c.kind = core::collective_kind(op, {});
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  c.params = {{"backend", "nccl"}, {"nodes", nodes}, {"ranks", 8 * nodes}, {"in_place", in_place}};
  c.imported = core::import_source{"nccl-tests", "", "", "x.txt", op + "_perf"};
  core::point_result p;
  p.bytes = 1 << 30;
  p.samples = {busbw};
  p.stats.median = busbw;
  p.extra["busbw"] = busbw;
  if (checked) p.extra["wrong"] = 0;
  c.points.push_back(p);
  return c;
}

model::table table_of(std::vector<core::case_result> cases) {
  model::run_input run;
  run.path = "x.txt";
  run.file.results = std::move(cases);
  return headline_table(run, model::reference_set::builtin());
}

TEST(HeadlineCollective, OutOfPlaceEvenWhenInPlaceIsHigher) {
  // all-to-all: in-place unvalidated (#wrong N/A) and higher; out-of-place validated.
  const auto t = table_of(
      {collective("alltoall", false, 29.9, 2), collective("alltoall", true, 35.0, 2, false)});
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][1].rfind("busbw 29.90 GB/s", 0), 0u) << t.rows[0][1];
  EXPECT_EQ(t.rows[0][0].find("not checked"), std::string::npos) << t.rows[0][0];
}

TEST(HeadlineCollective, InPlaceWhenItIsAllThereIsAndSaysWhenUnchecked) {
  const auto t = table_of({collective("alltoall", true, 35.0, 1, false)});
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][1].rfind("busbw 35.00 GB/s", 0), 0u) << t.rows[0][1];
  EXPECT_NE(t.rows[0][0].find("data not checked (#wrong N/A)"), std::string::npos) << t.rows[0][0];
}

TEST(HeadlineCollective, GbPerSecondOnlyPerKnownNic) {
  // A node's busbw across its NICs: no Gb/s figure without the NIC count ...
  auto c = collective("allreduce", false, 123.1, 2);
  auto t = table_of({c});
  EXPECT_EQ(t.rows[0][1].find("Gb/s"), std::string::npos) << t.rows[0][1];
  // ... per NIC with it (4 x 200G NICs: 246.2 Gb/s each) ...
  c.context["nics_per_node"] = 4;
  t = table_of({c});
  EXPECT_NE(t.rows[0][1].find("(246.2 Gb/s per NIC, 4 NICs)"), std::string::npos) << t.rows[0][1];
  // ... and none for one node, where no NIC carries it.
  auto one = collective("allreduce", false, 370.7, 1);
  one.context["nics_per_node"] = 4;
  t = table_of({one});
  EXPECT_EQ(t.rows[0][1].find("Gb/s"), std::string::npos) << t.rows[0][1];
}

}  // namespace
}  // namespace gpubench::reports::page_one

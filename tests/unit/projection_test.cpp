// The training scaling projection: the model's arithmetic by hand, the option parsing, and
// the section on the allreduce fixture (interpolated sizes only, never extrapolated).
#include <cmath>
#include <filesystem>
#include <variant>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "reports/page_one/projection/projection.hpp"
#include "reports/page_one/projection/projection_model.hpp"

namespace gpubench::reports::page_one::projection {
namespace {

using namespace model;

using projection::size_time;

TEST(ProjectionModel, InterpolatesLogLogOnlyInside) {
  const std::vector<size_time> pts = {{1e6, 1e-3}, {4e6, 2e-3}, {16e6, 8e-3}};
  EXPECT_DOUBLE_EQ(*projection::interpolate_seconds(pts, 4e6), 2e-3);  // measured
  // Between 1e6 and 4e6 time grows as size^0.5: at 2e6, 1e-3 x sqrt(2).
  EXPECT_NEAR(*projection::interpolate_seconds(pts, 2e6), 1e-3 * std::sqrt(2.0), 1e-12);
  // Between 4e6 and 16e6 time grows linearly: at 8e6, 4e-3.
  EXPECT_NEAR(*projection::interpolate_seconds(pts, 8e6), 4e-3, 1e-12);
  EXPECT_FALSE(projection::interpolate_seconds(pts, 0.5e6));  // below the smallest
  EXPECT_FALSE(projection::interpolate_seconds(pts, 17e6));   // above the largest
  EXPECT_FALSE(projection::interpolate_seconds({}, 1e6));
}

TEST(ProjectionModel, StepAndSpeedupByHand) {
  // T = 0.25 s, allreduce 0.05 s on 1 node and 0.1 s on 4, half of it hidden.
  const double s1 = projection::step_seconds(0.25, 0.05, 0.5);
  const double s4 = projection::step_seconds(0.25, 0.1, 0.5);
  EXPECT_DOUBLE_EQ(s1, 0.275);
  EXPECT_DOUBLE_EQ(s4, 0.3);
  EXPECT_NEAR(projection::speedup(4, 1, s1, s4), 4 * 0.275 / 0.3, 1e-12);  // 3.667
  // Against 2 nodes when 1 was not measured: (8 / 2) x step(2) / step(8).
  EXPECT_NEAR(projection::speedup(8, 2, 0.3, 0.4), 3.0, 1e-12);
}

TEST(ProjectionModel, GradientSizesMatchTheirModels) {
  const auto g = projection::gradients();
  ASSERT_EQ(g.size(), 3u);
  // ResNet-50: 25.6 M fp32 parameters; BERT-large 340 M; GPT-2 XL 1.5 B.
  EXPECT_NEAR(25.6e6 * 4 / g[0].bytes, 1.0, 0.03);
  EXPECT_NEAR(340e6 * 4 / g[1].bytes, 1.0, 0.03);
  EXPECT_NEAR(1.5e9 * 4 / g[2].bytes, 1.0, 0.03);
}

TEST(ReportOptions, ParsesAndRejects) {
  EXPECT_DOUBLE_EQ(parse_step_time("0.5"), 0.5);
  EXPECT_DOUBLE_EQ(parse_step_time("250ms"), 0.25);
  EXPECT_DOUBLE_EQ(parse_step_time("2s"), 2.0);
  EXPECT_DOUBLE_EQ(parse_step_time("1500us"), 0.0015);
  for (const char* bad : {"", "0", "-1", "abc", "5min", "nan", "inf"})
    EXPECT_THROW(parse_step_time(bad), core::usage_error) << bad;
  EXPECT_DOUBLE_EQ(parse_overlap("0.3"), 0.3);
  EXPECT_DOUBLE_EQ(parse_overlap("30%"), 0.3);
  EXPECT_DOUBLE_EQ(parse_overlap("1"), 1.0);
  for (const char* bad : {"", "1.5", "-0.1", "x", "120%"})
    EXPECT_THROW(parse_overlap(bad), core::usage_error) << bad;
}

std::vector<run_input> allreduce_runs() {
  run_input r;
  r.path = std::filesystem::path(GPUBENCH_TEST_DATA) / "reports" / "allreduce.json";
  r.file = core::read_result_file(r.path);
  r.label = "node-a";
  return {r};
}

TEST(ProjectionSection, InterpolatesTheFixtureAndRefusesToExtrapolate) {
  const auto s = projection_section(allreduce_runs(), report_options{});
  ASSERT_TRUE(s);
  std::vector<const table*> tables;
  std::string notes, text;
  for (const auto& b : s->blocks) {
    if (const auto* t = std::get_if<table>(&b)) tables.push_back(t);
    if (const auto* n = std::get_if<note>(&b)) notes += n->text + "\n";
    if (const auto* p = std::get_if<paragraph>(&b)) text += p->text + "\n";
  }
  EXPECT_NE(text.find("A model, not a measurement"), std::string::npos);
  EXPECT_NE(text.find("T = 0.25 s"), std::string::npos);
  // Only 100 MB lies inside the measured sizes (up to 128 MiB).
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_NE(tables[0]->caption.find("S = 100 MB"), std::string::npos);
  EXPECT_NE(notes.find("S = 1.4 GB"), std::string::npos);
  EXPECT_NE(notes.find("S = 6 GB"), std::string::npos);
  EXPECT_NE(notes.find("not measured (largest measured allreduce: 128M)"), std::string::npos)
      << notes;
  // Groups mpi/tcp, mpi/rdma, nccl/rdma side by side; rows 1, 2, 4 nodes.
  ASSERT_EQ(tables[0]->header.size(), 7u);
  EXPECT_EQ(tables[0]->header[1], "mpi, tcp step");
  EXPECT_EQ(tables[0]->header[2], "mpi, tcp speedup");
  ASSERT_EQ(tables[0]->rows.size(), 3u);
  // By hand: allreduce(100 MB) log-log between 8M and 128M: 34.69 ms on 1 node, 63.16 ms on
  // 4; step(1) = 0.2847 s, step(4) = 0.3132 s; speedup = 4 x 0.2847 / 0.3132 = 3.64, 91 %.
  EXPECT_EQ(tables[0]->rows[2][0], "4");
  EXPECT_EQ(tables[0]->rows[2][1], "0.3132 s (63.16 ms)");
  EXPECT_EQ(tables[0]->rows[2][2], "3.64x (91 %)");
  EXPECT_NE(text.find("Worked example (mpi, tcp, S = 100 MB, n = 4)"), std::string::npos) << text;
}

TEST(ProjectionSection, OverlapAndStepTimeChangeTheNumbers) {
  report_options o;
  o.step_compute_seconds = 0.1;
  o.overlap = 1.0;  // fully hidden: every node count scales perfectly
  const auto s = projection_section(allreduce_runs(), o);
  ASSERT_TRUE(s);
  for (const auto& b : s->blocks)
    if (const auto* t = std::get_if<table>(&b)) {
      EXPECT_EQ(t->rows[2][1], "0.1 s (63.16 ms)");
      EXPECT_EQ(t->rows[2][2], "4.00x (100 %)");
    }
}

TEST(ProjectionSection, NothingWithoutTwoNodeCounts) {
  auto runs = allreduce_runs();
  std::erase_if(runs[0].file.results,
                [](const core::case_result& c) { return c.params.value("nodes", 1) != 1; });
  EXPECT_FALSE(projection_section(runs, report_options{}));
}

}  // namespace
}  // namespace gpubench::reports::page_one::projection

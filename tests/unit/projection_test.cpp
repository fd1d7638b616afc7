// The training scaling projection: the model's arithmetic by hand, the option parsing, and
// the section on the allreduce fixture (interpolated sizes; node counts beyond the measured
// ones marked as extrapolated) and on a synthetic ring of all-gather and reduce-scatter.
#include <cmath>
#include <filesystem>
#include <variant>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/kind.hpp"
#include "core/result_json.hpp"
#include "reports/page_one/page_one.hpp"
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

struct section_parts {
  std::vector<const table*> tables;
  std::string notes, text;
};

section_parts parts_of(const section& s) {
  section_parts p;
  for (const auto& b : s.blocks) {
    if (const auto* t = std::get_if<table>(&b)) p.tables.push_back(t);
    if (const auto* n = std::get_if<note>(&b)) p.notes += n->text + "\n";
    if (const auto* t = std::get_if<paragraph>(&b)) p.text += t->text + "\n";
  }
  return p;
}

TEST(ProjectionSection, InterpolatesTheFixtureAndMarksExtrapolation) {
  const auto s = projection_section(allreduce_runs(), report_options{});
  ASSERT_TRUE(s);
  const auto p = parts_of(*s);
  EXPECT_NE(p.text.find("A model, not a measurement"), std::string::npos);
  EXPECT_NE(p.text.find("T = 0.25 s"), std::string::npos);
  EXPECT_NE(p.text.find("Strategy data-parallel"), std::string::npos);
  // Only the 100 MB gradient (25 M fp32 parameters) lies inside the measured sizes (up to
  // 128 MiB); then the fit table and the fit against the measurement at 100 MB.
  ASSERT_EQ(p.tables.size(), 3u);
  const auto& t = *p.tables[0];
  EXPECT_NE(t.caption.find("25 M parameters"), std::string::npos) << t.caption;
  EXPECT_NE(t.caption.find("1 x allreduce of 100 MB"), std::string::npos) << t.caption;
  EXPECT_NE(p.notes.find("350 M parameters"), std::string::npos);
  EXPECT_NE(p.notes.find("1.5 B parameters"), std::string::npos);
  EXPECT_NE(p.notes.find("allreduce of 1.4 GB: not measured (largest measured: 128 MiB)"),
            std::string::npos)
      << p.notes;
  // Groups mpi/tcp, mpi/rdma, nccl/rdma side by side; rows 1, 2, 4 nodes measured, then 8, 16
  // and 32 extrapolated from the fit.
  ASSERT_EQ(t.header.size(), 7u);
  EXPECT_EQ(t.header[1], "mpi, tcp step");
  EXPECT_EQ(t.header[2], "mpi, tcp speedup");
  ASSERT_EQ(t.rows.size(), 6u);
  // By hand: allreduce(100 MB) log-log between 8M and 128M: 34.69 ms on 1 node, 63.16 ms on
  // 4; step(1) = 0.2847 s, step(4) = 0.3132 s; speedup = 4 x 0.2847 / 0.3132 = 3.64, 91 %.
  EXPECT_EQ(t.rows[2][0], "4");
  EXPECT_EQ(t.rows[2][1], "0.3132 s (63.16 ms, 20 % of the step)");
  EXPECT_EQ(t.rows[2][2], "3.64x (91 %)");
  EXPECT_EQ(t.rows[3][0], "8 (extrapolated)");
  EXPECT_EQ(t.rows[5][0], "32 (extrapolated)");
  EXPECT_NE(p.text.find("Worked example (mpi, tcp, 25 M parameters, n = 4)"), std::string::npos)
      << p.text;
  EXPECT_NE(p.text.find("The alpha-beta fit, used only for the rows marked extrapolated"),
            std::string::npos);
  for (const auto* tb : p.tables)
    for (const auto& row : tb->rows)
      EXPECT_EQ(row.size(), tb->header.size()) << tb->caption;
  // One fit per group, on the cases of two or more nodes: within 9 % of every point there.
  ASSERT_EQ(p.tables[1]->rows.size(), 3u);
  EXPECT_EQ(p.tables[1]->rows[0][7], "two or more nodes");
  EXPECT_EQ(p.tables[1]->rows[0][6], "8.3 %");
  EXPECT_NE(p.notes.find("allreduce of 6 GB: not measured"), std::string::npos) << p.notes;
  EXPECT_EQ(p.notes.find("the fit misses"), std::string::npos) << p.notes;
  EXPECT_EQ(p.tables[1]->header[2], "alpha");
}

// A run of cases of these operations whose times follow a ring exactly: alpha = 10 us,
// B = 10 GB/s, time = (n-1) alpha + (n-1)/n S / B over n ranks, two ranks per node, at 1 and 2
// nodes, sizes 100 MB and 1 GB.
run_input exact_ring_run(std::vector<std::string> ops = {"allgather", "reduce_scatter"}) {
  run_input r;
  r.label = "ring";
  for (const auto& op : ops)
    for (const int nodes : {1, 2}) {
      core::case_result c;
      c.benchmark = "coll." + op;
      c.kind = core::collective_kind(op, {"nodes"});
      c.params = {
          {"backend", "nccl"}, {"transport", "rdma"}, {"nodes", nodes}, {"ranks", 2 * nodes}};
      c.metric = "bandwidth";
      c.unit = "GB/s";
      const double n = 2.0 * nodes;
      for (const double bytes : {1e8, 1e9}) {
        core::point_result p;
        p.bytes = static_cast<std::uint64_t>(bytes);
        p.extra["time_us"] = ((n - 1) * 1e-5 + (n - 1) / n * bytes / 1e10) * 1e6;
        c.points.push_back(p);
      }
      r.file.results.push_back(c);
    }
  return r;
}

TEST(ProjectionSection, ShardedByHandOnAnExactRing) {
  report_options o;
  o.training.strategy = training_strategy::sharded;
  o.training.parameters = 250e6;  // x 4 B = 1 GB per step, one unit
  const auto s = projection_section({exact_ring_run()}, o);
  ASSERT_TRUE(s);
  const auto p = parts_of(*s);
  ASSERT_GE(p.tables.size(), 1u);
  const auto& t = *p.tables[0];
  EXPECT_NE(t.caption.find("2 x all-gather of 1 GB"), std::string::npos) << t.caption;
  EXPECT_NE(t.caption.find("1 x reduce-scatter of 1 GB"), std::string::npos) << t.caption;
  // comm(n) = 3 x ((r-1) x 10 us + (r-1)/r x 1 GB / 10 GB/s), r = 2n ranks:
  // n = 1: 150.03 ms, step 0.40003 s; n = 2: 225.09 ms, step 0.47509 s, speedup
  // 2 x 0.40003 / 0.47509 = 1.68 (84 %); n = 4 (fit): 262.71 ms, step 0.51271 s, 3.12x (78 %);
  // n = 8: 281.7 ms, 0.5317 s, 6.02x (75 %).
  ASSERT_EQ(t.rows.size(), 5u);
  EXPECT_EQ(t.rows[0][1], "0.4 s (150 ms, 38 % of the step)");
  EXPECT_EQ(t.rows[1][1], "0.4751 s (225.1 ms, 47 % of the step)");
  EXPECT_EQ(t.rows[1][2], "1.68x (84 %)");
  EXPECT_EQ(t.rows[2][0], "4 (extrapolated)");
  EXPECT_EQ(t.rows[2][1], "0.5127 s (262.7 ms, 51 % of the step)");
  EXPECT_EQ(t.rows[2][2], "3.12x (78 %)");
  EXPECT_EQ(t.rows[3][1], "0.5317 s (281.7 ms, 53 % of the step)");
  EXPECT_EQ(t.rows[3][2], "6.02x (75 %)");
  // The fit recovers the ring: alpha 10 us, B 10 GB/s, residuals 0.
  ASSERT_GE(p.tables.size(), 3u);
  const auto& fits = *p.tables[1];
  ASSERT_EQ(fits.rows.size(), 2u);
  EXPECT_EQ(fits.rows[0][1], "reduce-scatter");
  EXPECT_EQ(fits.rows[0][2], "10 us");
  EXPECT_EQ(fits.rows[0][3], "10 GB/s");
  EXPECT_EQ(fits.rows[0][5], "0.0 %");
  EXPECT_EQ(p.tables[2]->rows.front()[6], "+0.0 %");
}

TEST(ProjectionSection, MoeByHandOnAnExactRing) {
  report_options o;
  o.training.strategy = training_strategy::moe;
  o.training.element_bytes = 2;
  o.training.moe = {2, 12500, 4000, 1};  // 12,500 tokens x 4000 x 2 B = 100 MB, 8 per step
  const auto s = projection_section({exact_ring_run({"alltoall"})}, o);
  ASSERT_TRUE(s);
  const auto p = parts_of(*s);
  ASSERT_GE(p.tables.size(), 1u);
  const auto& t = *p.tables[0];
  EXPECT_NE(t.caption.find("8 x all-to-all of 100 MB"), std::string::npos) << t.caption;
  // comm(n) = 8 x ((r-1) x 10 us + (r-1)/r x 100 MB / 10 GB/s): n = 1 (r = 2): 40.08 ms,
  // step 0.29008 s; n = 2 (r = 4): 60.24 ms, step 0.31024 s, speedup 2 x 0.29008 / 0.31024 =
  // 1.870, efficiency 0.935 (94 %); n = 4 (r = 8, fit): 70.56 ms, step 0.32056 s, 3.62x (90 %).
  ASSERT_GE(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][1], "0.2901 s (40.08 ms, 14 % of the step)");
  EXPECT_EQ(t.rows[1][1], "0.3102 s (60.24 ms, 19 % of the step)");
  EXPECT_EQ(t.rows[1][2], "1.87x (94 %)");
  EXPECT_EQ(t.rows[2][0], "4 (extrapolated)");
  EXPECT_EQ(t.rows[2][1], "0.3206 s (70.56 ms, 22 % of the step)");
  EXPECT_EQ(t.rows[2][2], "3.62x (90 %)");
}

TEST(ProjectionSection, NamesAGroupTheFitMisses) {
  // Allreduce ten times slower at 4 nodes than at 2 for the same size: no ring does that
  // (2(n-1)/n goes from 1.5 to 1.75), so the fit misses 100 MB by far more than 20 %.
  run_input r;
  r.label = "odd";
  for (const int nodes : {2, 4}) {
    core::case_result c;
    c.benchmark = "coll.allreduce";
    c.kind = core::collective_kind("allreduce", {"nodes"});
    c.params = {{"backend", "mpi"}, {"nodes", nodes}, {"ranks", nodes}};
    for (const double bytes : {1e6, 1e8}) {
      core::point_result p;
      p.bytes = static_cast<std::uint64_t>(bytes);
      p.extra["time_us"] = bytes / 1e9 * 1e6 * (nodes == 4 ? 10 : 1);
      c.points.push_back(p);
    }
    r.file.results.push_back(c);
  }
  report_options o;
  o.training.parameters = 25e6;  // 100 MB in fp32
  const auto s = projection_section({r}, o);
  ASSERT_TRUE(s);
  EXPECT_NE(parts_of(*s).notes.find("allreduce: the fit misses the measurement by more than 20 %"),
            std::string::npos)
      << parts_of(*s).notes;
}

TEST(ProjectionSection, SaysPlainlyWhatAStrategyNeedsAndTheRunLacks) {
  report_options o;
  o.training.strategy = training_strategy::sharded;
  const auto s = projection_section(allreduce_runs(), o);
  ASSERT_TRUE(s);
  const auto p = parts_of(*s);
  EXPECT_TRUE(p.tables.empty());
  EXPECT_NE(p.notes.find("the sharded strategy needs reduce-scatter and all-gather; this run "
                         "measured only allreduce"),
            std::string::npos)
      << p.notes;
  o.training.strategy = training_strategy::moe;
  o.training.moe = {24, 8192, 4096, 1};
  const auto m = parts_of(*projection_section({exact_ring_run()}, o));
  EXPECT_NE(m.notes.find("the moe strategy needs all-to-all; this run measured only all-gather "
                         "and reduce-scatter"),
            std::string::npos)
      << m.notes;
}

TEST(ProjectionSection, OverlapAndStepTimeChangeTheNumbers) {
  report_options o;
  o.step_compute_seconds = 0.1;
  o.overlap = 1.0;  // fully hidden: every node count scales perfectly
  const auto s = projection_section(allreduce_runs(), o);
  ASSERT_TRUE(s);
  for (const auto& b : s->blocks)
    if (const auto* t = std::get_if<table>(&b); t && t->header[1] == "mpi, tcp step") {
      EXPECT_EQ(t->rows[2][1], "0.1 s (63.16 ms, 0 % of the step)");
      EXPECT_EQ(t->rows[2][2], "4.00x (100 %)");
    }
}

TEST(ProjectionSummary, OneLineOnPageOne) {
  const auto line = projection_summary(allreduce_runs()[0], report_options{});
  ASSERT_TRUE(line);
  // The 100 MB gradient at 4 nodes over MPI/TCP: 91 % (by hand above).
  EXPECT_NE(line->find("25 M parameters, data-parallel, T = 0.25 s, overlap = 0: scaling "
                       "efficiency mpi, tcp 91 % at 4 nodes"),
            std::string::npos)
      << *line;
  report_options sharded;
  sharded.training.strategy = training_strategy::sharded;
  const auto lacks = projection_summary(allreduce_runs()[0], sharded);
  ASSERT_TRUE(lacks);
  EXPECT_NE(lacks->find("the sharded strategy needs reduce-scatter and all-gather; this run "
                        "measured only allreduce."),
            std::string::npos)
      << *lacks;
  // Page one carries the line under the findings.
  const auto sections =
      page_one::page_one_sections(allreduce_runs(), reference_set::builtin(), report_options{});
  ASSERT_FALSE(sections.empty());
  bool shown = false;
  for (const auto& b : sections.back().blocks)
    if (const auto* p = std::get_if<paragraph>(&b)) shown = shown || p->text == *line;
  EXPECT_TRUE(shown);
}

TEST(ProjectionSection, OneNodeCountProjectsThatScale) {
  auto runs = allreduce_runs();
  std::erase_if(runs[0].file.results,
                [](const core::case_result& c) { return c.params.value("nodes", 1) != 1; });
  const auto s = projection_section(runs, report_options{});
  ASSERT_TRUE(s);
  const auto p = parts_of(*s);
  ASSERT_FALSE(p.tables.empty());
  const auto& t = *p.tables.front();
  EXPECT_EQ(t.rows[0][0], "1");
  // 100 MB at one node over MPI/TCP: 34.69 ms (the by-hand figure above); step 0.2847 s.
  EXPECT_EQ(t.rows[0][1], "0.2847 s (34.69 ms, 12 % of the step)");
  EXPECT_NE(p.text.find("Worked example (mpi, tcp, 25 M parameters, n = 1): comm(1) = 1 x 34.69 "
                        "ms = 34.69 ms"),
            std::string::npos)
      << p.text;
  const auto line = projection_summary(runs[0], report_options{});
  ASSERT_TRUE(line);
  EXPECT_NE(line->find("mpi, tcp at 1 node (measured): communication 34.69 ms per step, step "
                       "0.2847 s, 12 % of it communicating"),
            std::string::npos)
      << *line;
}

TEST(ProjectionSection, NoCollectiveSaysWhatIsMissingOnlyWhenAsked) {
  auto runs = allreduce_runs();
  runs[0].file.results.clear();
  EXPECT_FALSE(projection_section(runs, report_options{}));
  EXPECT_FALSE(projection_summary(runs[0], report_options{}));
  report_options asked;
  asked.training.parameters = 7e9;
  const auto line = projection_summary(runs[0], asked);
  ASSERT_TRUE(line);
  EXPECT_NE(line->find("the data-parallel strategy needs allreduce; this run measured no "
                       "collective"),
            std::string::npos)
      << *line;
}

TEST(ProjectionSection, ModelTooLargeForTheSweepSaysWhichMessage) {
  report_options o;
  o.training.parameters = 1e9;  // 4 GB of gradient: 31x the largest size (128 MiB)
  const auto line = projection_summary(allreduce_runs()[0], o);
  ASSERT_TRUE(line);
  EXPECT_NE(line->find("nothing to project for the data-parallel strategy: the allreduce of 4 GB "
                       "(1 B parameters) is not measured (largest measured: 128 MiB)"),
            std::string::npos)
      << *line;
  o.training.parameters = 50e6;  // 200 MB: 1.5x the largest size, timed at its rate
  const auto held = projection_summary(allreduce_runs()[0], o);
  ASSERT_TRUE(held);
  EXPECT_NE(held->find("at the largest measured size's rate"), std::string::npos) << *held;
}

}  // namespace
}  // namespace gpubench::reports::page_one::projection

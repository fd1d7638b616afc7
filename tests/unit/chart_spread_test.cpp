// A chart of more variants than colours draws their spread; a few variants keep a line each.
#include <gtest/gtest.h>

#include "reports/views/chart_spread.hpp"
#include "reports/views/view_blocks.hpp"

namespace gpubench::reports::views {
namespace {

using namespace model;

chart_series series_of(std::vector<std::pair<double, double>> xy) {
  chart_series s;
  for (const auto& [x, y] : xy)
    s.points.push_back({x, y, 0, 0});
  return s;
}

TEST(ChartSpread, BestMedianWorstAtEachSize) {
  const std::vector<chart_series> variants = {series_of({{8, 10}, {1024, 100}}),
                                              series_of({{8, 30}, {1024, 50}}),
                                              series_of({{8, 20}}), series_of({{1024, 70}})};
  const auto latency = spread_series(variants, false);
  ASSERT_EQ(latency.size(), 3u);
  EXPECT_EQ(latency[0].name, "lowest of 4 variants");
  EXPECT_EQ(latency[2].name, "highest of 4 variants");
  ASSERT_EQ(latency[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ(latency[0].points[0].x, 8);
  EXPECT_DOUBLE_EQ(latency[0].points[0].y, 10);  // best latency at 8 B: the lowest
  EXPECT_DOUBLE_EQ(latency[1].points[0].y, 20);  // median of 10, 20, 30
  EXPECT_DOUBLE_EQ(latency[2].points[0].y, 30);
  EXPECT_DOUBLE_EQ(latency[1].points[1].y, 70);  // median of 50, 70, 100
  const auto bandwidth = spread_series(variants, true);
  EXPECT_EQ(bandwidth[0].name, "highest of 4 variants");
  EXPECT_DOUBLE_EQ(bandwidth[0].points[1].y, 100);  // best bandwidth: the highest
  EXPECT_DOUBLE_EQ(bandwidth[2].points[1].y, 50);
  EXPECT_TRUE(spread_series({}, true).empty());
}

TEST(ChartSpread, EvenCountTakesTheMeanOfTheMiddleTwo) {
  const auto s = spread_series({series_of({{8, 1}}), series_of({{8, 3}})}, true);
  EXPECT_DOUBLE_EQ(s[1].points[0].y, 2);
}

// size_chart keeps one line per case up to the palette, then draws the spread.
std::vector<core::case_result> latency_cases(std::size_t n) {
  std::vector<core::case_result> cases(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto& c = cases[i];
    c.benchmark = "net.tcp.latency";
    c.metric = "latency";
    c.unit = "us";
    c.better = "lower";
    for (std::uint64_t bytes : {8u, 4096u}) {
      core::point_result p;
      p.bytes = bytes;
      p.stats.median = static_cast<double>(i + 1) * (bytes == 8 ? 1 : 4);
      p.stats.p99 = p.stats.median * 2;
      c.points.push_back(p);
    }
  }
  return cases;
}

std::vector<case_ref> refs_of(const std::vector<core::case_result>& cases) {
  std::vector<case_ref> refs;
  for (const auto& c : cases)
    refs.push_back({nullptr, &c, "peer " + std::to_string(refs.size())});
  return refs;
}

TEST(ChartSpread, SizeChartDrawsEachCaseUpToThePalette) {
  const auto few = latency_cases(max_drawn_series);
  const line_chart chart = size_chart("latency", refs_of(few), {});
  EXPECT_EQ(chart.series.size(), max_drawn_series);
  EXPECT_TRUE(chart.series[0].has_band);
}

TEST(ChartSpread, SizeChartDrawsTheSpreadOfManyCases) {
  const auto many = latency_cases(max_drawn_series + 1);
  const line_chart chart = size_chart("latency", refs_of(many), {});
  ASSERT_EQ(chart.series.size(), 3u);
  EXPECT_EQ(chart.series[0].name, "lowest of 11 variants");
  EXPECT_DOUBLE_EQ(chart.series[0].points[0].y, 1);  // 8 B: medians 1..11
  EXPECT_DOUBLE_EQ(chart.series[1].points[0].y, 6);
  EXPECT_DOUBLE_EQ(chart.series[2].points[1].y, 44);  // 4 KiB: medians 4..44
}

}  // namespace
}  // namespace gpubench::reports::views

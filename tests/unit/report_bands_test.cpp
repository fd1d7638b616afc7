// Expected bands ("is my number normal?"): the table shipped in the program, how a system is
// recognised, the verdicts, page one of a gpubench run on an H100 machine, and compare rows.
#include "reports/model/bands.hpp"

#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "reports/model/references.hpp"
#include "reports/model/report_options.hpp"
#include "reports/page_one/band_checks.hpp"
#include "reports/page_one/page_one.hpp"
#include "tests/unit/report_fixtures.hpp"

namespace gpubench::reports {
namespace {

using model::band_table;
using nlohmann::json;

const page_one::band_check* check_of(const std::vector<page_one::band_check>& checks,
                                     const std::string& metric) {
  const auto it =
      std::find_if(checks.begin(), checks.end(), [&](const auto& c) { return c.metric == metric; });
  return it == checks.end() ? nullptr : &*it;
}

TEST(ReportBands, BuiltinTableCoversTheSystemsAndMetricsWithSources) {
  const auto t = band_table::builtin();
  // The systems an architect asks about, each recognised from what a run carries.
  for (const char* id : {"a100-sxm", "h100-sxm", "h200", "b200", "gb200", "pcie-gpu-gen4",
                         "pcie-gen4-host", "pcie-gen5-host"})
    EXPECT_TRUE(std::any_of(t.systems().begin(), t.systems().end(), [&](const auto& s) {
      return s.id == id;
    })) << id;
  std::set<std::string> metrics;  // a metric at a NIC speed counts once per speed
  for (const auto& b : t.bands()) {
    EXPECT_FALSE(b.source.empty()) << b.system << " " << b.metric;
    EXPECT_FALSE(b.date.empty()) << b.system << " " << b.metric;
    const auto& s = t.system_of(b);
    metrics.insert(b.metric + (s.nic_gbps ? "@" + std::to_string(int(*s.nic_gbps)) : ""));
  }
  EXPECT_GE(metrics.size(), 10u);
  for (const char* m : {"h2d", "d2h", "gpu_pair_uni", "gpu_pair_bidir", "allreduce_8gpu_nvls",
                        "allreduce_8gpu_ring", "nic_busbw@200", "nic_busbw@400", "ib_write_bw@200",
                        "ib_write_bw@400", "rc_latency"})
    EXPECT_TRUE(metrics.count(m)) << m;
}

TEST(ReportBands, SystemsAreRecognisedByWholeWordsOfTheGpuName) {
  const auto t = band_table::builtin();
  const auto find_h2d = [&](const json& gpus) {
    const json sys = {{"gpus", gpus}};
    const auto* b = t.find("h2d", {&sys, {}, {}});
    return b ? b->system : std::string("none");
  };
  EXPECT_EQ(find_h2d({{{"name", "NVIDIA H100 80GB HBM3"}}}), "h100-sxm");
  EXPECT_EQ(find_h2d({{{"name", "NVIDIA A100-SXM4-40GB"}}}), "a100-sxm");
  // An A10 is not an A100; an H100 PCIe is not an SXM board (its PCIe generation decides).
  EXPECT_EQ(find_h2d({{{"name", "NVIDIA A10"}}}), "pcie-gpu-gen4");
  EXPECT_EQ(find_h2d({{{"name", "NVIDIA H100 PCIe"}, {"pcie", "gen5 x16"}}}), "pcie-gen5-host");
  EXPECT_EQ(find_h2d({{{"name", "NVIDIA GeForce RTX 2080 Ti"}}}), "none");
  EXPECT_EQ(find_h2d(json::array()), "none");
}

TEST(ReportBands, BadTablesAreRefusedWithTheField) {
  json doc = {{"schema", "gpubench.bands/1"},
              {"systems", {{{"id", "x"}, {"name", "X"}, {"gpu", {"X1"}}}}},
              {"bands",
               {{{"system", "x"},
                 {"metric", "h2d"},
                 {"low", 1},
                 {"high", 2},
                 {"unit", "GB/s"},
                 {"source", "somewhere"},
                 {"date", "2026"}}}}};
  EXPECT_NO_THROW(band_table(doc, "t.json"));
  auto no_date = doc;
  no_date["bands"][0].erase("date");
  try {
    band_table(no_date, "t.json");
    FAIL() << "a band without a date was accepted";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("t.json: bands[0].date"), std::string::npos) << e.what();
  }
  auto bad_metric = doc;
  bad_metric["bands"][0]["metric"] = "fps";
  EXPECT_THROW(band_table(bad_metric, "t.json"), core::input_error);
  auto bad_system = doc;
  bad_system["bands"][0]["system"] = "y";
  EXPECT_THROW(band_table(bad_system, "t.json"), core::input_error);
}

// A gpubench run on a machine whose GPUs are H100s: page one shows the band and its source.
TEST(ReportBands, H100RunShowsTheBandAndItsSourceOnPageOne) {
  const auto runs = fixture_files::load({"gpu-h100.json"});
  const auto table = band_table::builtin();  // the checks point into it
  const auto checks = page_one::band_checks(runs.front(), table);
  const auto* h2d = check_of(checks, "h2d");
  ASSERT_TRUE(h2d);
  EXPECT_EQ(h2d->band->system, "h100-sxm");
  EXPECT_EQ(h2d->position, page_one::band_position::within);
  EXPECT_NE(
      page_one::band_sentence(*h2d).find(
          "within the band published for H100 SXM (NVLink 4, PCIe 5.0): 51-55 GB/s, floor 48"),
      std::string::npos)
      << page_one::band_sentence(*h2d);
  const auto* d2h = check_of(checks, "d2h");
  ASSERT_TRUE(d2h);  // 49.8 GB/s: under 52, above the floor of 48
  EXPECT_EQ(d2h->position, page_one::band_position::below);
  EXPECT_NE(page_one::band_sentence(*d2h).find("below the band published for H100 SXM"),
            std::string::npos);
  EXPECT_EQ(page_one::band_sentence(*d2h).find("under the floor"), std::string::npos);
  const auto* pair = check_of(checks, "gpu_pair_uni");
  ASSERT_TRUE(pair);
  EXPECT_NEAR(pair->value, 356.2, 0.1);  // the slowest pair

  const auto sections =
      page_one::page_one_sections(runs, model::reference_set::builtin(), model::report_options{});
  bool shown = false;
  for (const auto& b : sections.front().blocks)
    if (const auto* t = std::get_if<model::table>(&b); t && t->caption.find("Is it normal") == 0) {
      shown = true;
      ASSERT_FALSE(t->rows.empty());
      EXPECT_NE(t->rows[0][2].find("within the band published for H100 SXM"), std::string::npos);
      EXPECT_NE(t->rows[0][3].find("Azure/AI-benchmarking-guide"), std::string::npos)
          << t->rows[0][3];
    }
  EXPECT_TRUE(shown);
}

TEST(ReportBands, NothingIsSaidWhereNoBandFits) {
  auto runs = fixture_files::load({"gpu-h100.json"});
  for (auto& g : runs.front().file.system["gpus"])
    g["name"] = "NVIDIA GeForce RTX 2080 Ti";
  for (auto& g : runs.front().file.system["gpus"])
    g["pcie"] = "gen3 x16";
  const auto table = band_table::builtin();
  EXPECT_TRUE(page_one::band_checks(runs.front(), table).empty());
  EXPECT_TRUE(page_one::bands_table({}).rows.empty());
}

TEST(ReportBands, FarBelowTheBandIsARegressionInCompare) {
  auto runs = fixture_files::load({"gpu-h100.json"});
  for (auto& c : runs.front().file.results)
    if (c.benchmark == "gpu.h2d")
      for (auto& p : c.points)
        p.stats.median = 30;  // a Gen5 H100 at 30 GB/s: a link trained down, or remote memory
  const auto rows = page_one::band_rows(runs.front(), band_table::builtin(), {});
  const auto it = std::find_if(rows.begin(), rows.end(),
                               [](const auto& r) { return r.benchmark == "gpu.h2d"; });
  ASSERT_NE(it, rows.end());
  EXPECT_EQ(it->result, compare::verdict::slower);
  EXPECT_TRUE(it->regression);
  EXPECT_NE(it->note.find("under the floor of 48"), std::string::npos) << it->note;
  EXPECT_NE(it->note.find("source: Azure/AI-benchmarking-guide"), std::string::npos) << it->note;
  // d2h at 49.8 is 4 % under the band's low end: within the 5 % threshold, not a regression.
  const auto d2h = std::find_if(rows.begin(), rows.end(),
                                [](const auto& r) { return r.benchmark == "gpu.d2h"; });
  ASSERT_NE(d2h, rows.end());
  EXPECT_FALSE(d2h->regression);
}

}  // namespace
}  // namespace gpubench::reports

// gpubench report: structure and values of each format on the hand-written fixtures of the
// families that cannot run here (GPU, RDMA, allreduce), and its errors on bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "reports/model/text_format.hpp"
#include "reports/render/charts.hpp"
#include "reports/render/csv_writer.hpp"
#include "reports/render/html_writer.hpp"
#include "reports/render/markdown_writer.hpp"
#include "reports/report_builder.hpp"
#include "tests/unit/report_fixtures.hpp"

namespace gpubench::reports {
namespace {

using namespace model;
using namespace render;

using fixture_files::fixtures;
using fixture_files::load;

std::string markdown_of(const std::vector<run_input>& runs) {
  return to_markdown(build_report(runs, reference_set::builtin()));
}

const section* find_section(const document& doc, const std::string& prefix) {
  for (const auto& s : doc.sections)
    if (s.title.rfind(prefix, 0) == 0) return &s;
  return nullptr;
}

template <class T>
std::vector<const T*> blocks_of(const section& s) {
  std::vector<const T*> out;
  for (const auto& b : s.blocks)
    if (const auto* v = std::get_if<T>(&b)) out.push_back(v);
  return out;
}

TEST(Report, GpuFixtureHasCopiesHeatmapsAndReferences) {
  const auto runs = load({"gpu-h100.json"});
  const auto doc = build_report(runs, reference_set::builtin());
  const auto* h2d = find_section(doc, "Host to GPU copies");
  ASSERT_NE(h2d, nullptr);
  const auto charts = blocks_of<line_chart>(*h2d);
  ASSERT_EQ(charts.size(), 1u);
  EXPECT_EQ(charts[0]->series.size(), 2u);  // pinned and pageable
  bool line_rate = false, reference = false;
  for (const auto& l : charts[0]->lines) {
    line_rate |= !l.is_reference && l.value == 63.0;
    reference |= l.is_reference && l.label.find("H100") != std::string::npos;
  }
  EXPECT_TRUE(line_rate) << "the PCIe line rate is drawn";
  EXPECT_TRUE(reference) << "the published H100 figure is drawn, labelled as a reference";

  const auto& pinned = runs[0].file.results[0];
  const std::string md = markdown_of(runs);
  EXPECT_NE(md.find(format_value(pinned.points.back().stats.median)), std::string::npos);
  const double pct = pinned.points.back().stats.median / 63.0 * 100;
  EXPECT_NE(md.find(fmt::format("{:.1f} %", pct)), std::string::npos) << "% of line rate";
  EXPECT_NE(md.find("Published reference figures"), std::string::npos);
  EXPECT_NE(md.find("NVIDIA/nvbandwidth issue #6"), std::string::npos) << "sources are shown";

  const auto* p2p = find_section(doc, "GPU to GPU bandwidth");
  ASSERT_NE(p2p, nullptr);
  const auto maps = blocks_of<heatmap>(*p2p);
  ASSERT_EQ(maps.size(), 1u);
  ASSERT_EQ(maps[0]->rows.size(), 4u);
  ASSERT_EQ(maps[0]->cols.size(), 4u);
  EXPECT_TRUE(std::isnan(maps[0]->values[1][1])) << "no GPU is paired with itself";
  double expect_01 = 0;
  for (const auto& c : runs[0].file.results)
    if (c.benchmark == "gpu.p2p.bandwidth" && c.params["src"] == 0 && c.params["dst"] == 1)
      expect_01 = c.points.back().stats.median;
  EXPECT_DOUBLE_EQ(maps[0]->values[0][1], expect_01);
  EXPECT_NE(md.find(format_value(expect_01) + " (nvlink)"), std::string::npos);
  EXPECT_NE(find_section(doc, "GPU to GPU latency"), nullptr);

  EXPECT_NE(md.find("not supported by this GPU driver"), std::string::npos) << "skip reason";
}

// A title names what was measured: with every RDMA latency case skipped, the latency view is
// TCP's, and the skipped cases are named in it with their reason.
TEST(Report, ViewTitleNamesOnlyWhatWasMeasured) {
  auto runs = load({"network.json"});
  for (auto& c : runs[0].file.results)
    if (c.benchmark == "net.rdma.latency") {
      c.status = core::case_status::skipped;
      c.reason = "no RDMA device";
      c.points.clear();
    }
  const auto doc = build_report(runs, reference_set::builtin());
  EXPECT_EQ(find_section(doc, "Network latency: TCP and RDMA"), nullptr);
  const auto* lat = find_section(doc, "Network latency: TCP (net.tcp.latency)");
  ASSERT_NE(lat, nullptr);
  std::size_t listed = 0;
  for (const auto* n : blocks_of<note>(*lat))
    listed += n->text.starts_with("Not measured: ") &&
              n->text.find("(skipped: no RDMA device)") != std::string::npos;
  EXPECT_EQ(listed, 1u) << "the skipped RDMA cases stay in the section, one line for one reason";
  EXPECT_NE(find_section(doc, "Network bandwidth: TCP and RDMA"), nullptr);
}

// A collective measured on one node is not said to run "across nodes".
TEST(Report, CollectiveOnOneNodeIsTitledSo) {
  auto runs = load({"allreduce.json"});
  EXPECT_NE(find_section(build_report(runs, reference_set::builtin()), "Allreduce across nodes"),
            nullptr);
  std::erase_if(runs[0].file.results,
                [](const core::case_result& c) { return c.params.value("nodes", 0) != 1; });
  const auto doc = build_report(runs, reference_set::builtin());
  EXPECT_EQ(find_section(doc, "Allreduce across nodes"), nullptr);
  EXPECT_NE(find_section(doc, "Allreduce within one node"), nullptr);
}

TEST(Report, NetworkPutsTcpAndRdmaOnOneChartWithCpuCost) {
  const auto runs = load({"network.json"});
  const auto doc = build_report(runs, reference_set::builtin());
  const auto* lat = find_section(doc, "Network latency: TCP and RDMA");
  ASSERT_NE(lat, nullptr);
  const auto charts = blocks_of<line_chart>(*lat);
  ASSERT_EQ(charts.size(), 1u);
  ASSERT_EQ(charts[0]->series.size(), 3u);
  EXPECT_TRUE(charts[0]->series[0].has_band);
  EXPECT_NE(charts[0]->series[0].name.find("tcp"), std::string::npos);
  EXPECT_NE(charts[0]->series[1].name.find("rdma"), std::string::npos);
  const auto& p = charts[0]->series[0].points.front();
  EXPECT_LT(p.band_low, p.band_high) << "the band spans p50 to p99";
  const auto tables = blocks_of<table>(*lat);
  ASSERT_FALSE(tables.empty());
  EXPECT_NE(std::find(tables[0]->header.begin(), tables[0]->header.end(), "CPU s/GB"),
            tables[0]->header.end());
  const std::string md = to_markdown(doc);
  EXPECT_NE(md.find("Network bandwidth: TCP and RDMA"), std::string::npos);
  EXPECT_NE(md.find("Bad address (is nvidia-peermem loaded?)"), std::string::npos)
      << "a failed case renders with its reason";
  EXPECT_NE(md.find("RC send latency, small messages, InfiniBand"), std::string::npos);
  EXPECT_NE(md.find("interface: ens1f0np0"), std::string::npos) << "the path is shown";
}

TEST(Report, AllreduceScalingPerNodeCountAndTransport) {
  const auto runs = load({"allreduce.json"});
  const auto doc = build_report(runs, reference_set::builtin());
  const auto* s = find_section(doc, "Allreduce across nodes");
  ASSERT_NE(s, nullptr);
  const auto charts = blocks_of<line_chart>(*s);
  ASSERT_EQ(charts.size(), 3u);             // mpi/tcp, mpi/rdma, nccl/rdma
  ASSERT_EQ(charts[0]->series.size(), 3u);  // 1, 2, 4 nodes
  EXPECT_EQ(charts[0]->y_label, "busbw (GB/s)");
  const auto& c1 = runs[0].file.results[0];
  EXPECT_DOUBLE_EQ(charts[0]->series[0].points.back().y, c1.points.back().extra["busbw"]);

  const std::string md = to_markdown(doc);
  EXPECT_NE(md.find("Scaling, backend=mpi, transport=tcp"), std::string::npos);
  const double b1 = c1.points.back().extra["busbw"];
  const double b4 = runs[0].file.results[2].points.back().extra["busbw"];
  EXPECT_NE(md.find(format_ratio(b4 / b1)), std::string::npos) << "4 nodes against 1";
  EXPECT_NE(md.find("mpi: busbw at 128M per node count, side by side"), std::string::npos)
      << "TCP against RDMA";
}

// 8 GPUs per node: the 1-node NCCL row is NVLink, so the scaling table also sets every row
// against the first row of two or more nodes, and each ratio column names its baseline.
TEST(Report, AllreduceScalingAlsoAgainstFirstMultiNodeRow) {
  const auto runs = load({"allreduce.json"});
  const auto doc = build_report(runs, reference_set::builtin());
  const auto* s = find_section(doc, "Allreduce across nodes");
  ASSERT_NE(s, nullptr);
  const table* nccl = nullptr;
  for (const auto* t : blocks_of<table>(*s))
    if (t->caption.find("Scaling, backend=nccl") != std::string::npos) nccl = t;
  ASSERT_NE(nccl, nullptr);
  EXPECT_NE(nccl->caption.find("and to 2 node(s)"), std::string::npos) << nccl->caption;
  ASSERT_EQ(nccl->header.size(), 8u);
  EXPECT_EQ(nccl->header[3], "vs 1 node(s)");
  EXPECT_EQ(nccl->header[4], "vs 2 node(s)");
  const auto& r = runs[0].file.results;
  const double b2 = r[7].points.back().extra["busbw"];
  const double b4 = r[8].points.back().extra["busbw"];
  ASSERT_EQ(nccl->rows.size(), 3u);
  EXPECT_EQ(nccl->rows[2][4], format_ratio(b4 / b2)) << "4 nodes against 2";
  EXPECT_EQ(nccl->rows[1][4], format_ratio(1.0));
}

// Single-rank cases (older files recorded algbw there) stay out of charts and scaling.
TEST(Report, AllreduceLeavesSingleRankCasesOut) {
  auto runs = load({"allreduce.json"});
  auto& first = runs[0].file.results[0];
  first.params["ranks"] = 1;
  const auto doc = build_report(runs, reference_set::builtin());
  const auto* s = find_section(doc, "Allreduce across nodes");
  ASSERT_NE(s, nullptr);
  const auto charts = blocks_of<line_chart>(*s);
  ASSERT_FALSE(charts.empty());
  EXPECT_EQ(charts[0]->series.size(), 2u) << "2 and 4 nodes only";
  EXPECT_NE(to_markdown(doc).find("Single-rank cases are left out"), std::string::npos);
}

TEST(Report, CsvHasOneRowPerPoint) {
  const auto runs = load({"network.json", "allreduce.json"});
  const std::string csv = to_csv(runs);
  std::size_t rows = 0, expected = 1;  // header
  for (std::size_t at = csv.find("\r\n"); at != std::string::npos; at = csv.find("\r\n", at + 2))
    ++rows;
  for (const auto& r : runs)
    for (const auto& c : r.file.results)
      expected += std::max<std::size_t>(1, c.points.size());
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(csv.rfind("run,host,benchmark,params,status", 0), 0u);
  EXPECT_NE(csv.find("cpu_seconds_per_gb"), std::string::npos);
  EXPECT_NE(csv.find("busbw"), std::string::npos);
  EXPECT_NE(csv.find(fmt::format(",{},", runs[0].file.results[0].points[0].stats.median)),
            std::string::npos)
      << "values at full precision";
}

TEST(Report, HtmlIsSelfContained) {
  const auto runs = load({"gpu-h100.json", "network.json"});
  const std::string html = to_html(build_report(runs, reference_set::builtin()));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src=\""), std::string::npos);  // text may say "src=0" (a GPU pair)
  EXPECT_NE(html.find("<h2>Appendix A: systems"), std::string::npos);
  if (charts_unavailable()) GTEST_SKIP() << "charts: " << *charts_unavailable();
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("id=\"f1-"), std::string::npos) << "chart ids are unique per chart";
  EXPECT_EQ(html.find("id=\"glyph"), std::string::npos);
}

TEST(Report, MarkdownLinksEachChartItWasGiven) {
  const auto doc = build_report(load({"network.json"}), reference_set::builtin());
  const std::string named = to_markdown(doc);
  EXPECT_NE(named.find("_Chart: Network latency"), std::string::npos) << "no store: named";
  if (charts_unavailable()) GTEST_SKIP() << "charts: " << *charts_unavailable();
  std::vector<std::string> stored;
  const std::string md = to_markdown(doc, [&](const std::string& svg) {
    stored.push_back(svg);
    return "c/" + std::to_string(stored.size()) + ".svg";
  });
  ASSERT_EQ(stored.size(), 3u);  // the machine diagram of page one, latency and bandwidth
  EXPECT_EQ(stored[0].rfind("<?xml", 0), 0u) << "a standalone SVG document";
  EXPECT_NE(stored[0].find("<svg"), std::string::npos);
  EXPECT_NE(md.find("![Network latency: TCP and RDMA"), std::string::npos);
  EXPECT_NE(md.find("![Machine diagram: node-a](c/1.svg)"), std::string::npos);
  EXPECT_NE(md.find("](c/3.svg)"), std::string::npos);
  EXPECT_EQ(md.find("_Chart:"), std::string::npos);
}

TEST(Report, PdfIsWritten) {
  if (charts_unavailable()) GTEST_SKIP() << "PDF: " << *charts_unavailable();
  const auto runs = load({"allreduce.json"});
  const auto path = std::filesystem::temp_directory_path() /
                    ("gpubench-report-test-" + std::to_string(::getpid()) + ".pdf");
  write_pdf(build_report(runs, reference_set::builtin()), path);
  std::ifstream in(path, std::ios::binary);
  std::string head(5, '\0');
  in.read(head.data(), 5);
  EXPECT_EQ(head, "%PDF-");
  EXPECT_GT(std::filesystem::file_size(path), 10000u);
  std::filesystem::remove(path);
}

TEST(Report, SeveralRunsAreLabelledApart) {
  const auto runs = load({"network.json", "allreduce.json"});
  EXPECT_NE(runs[0].label, runs[1].label) << "same host, told apart by start time";
  EXPECT_NE(runs[0].label.find("node-a"), std::string::npos);
}

TEST(Report, ComparisonAcrossRunsUsesTheComparisonModel) {
  auto runs = load({"network.json"});
  run_input after = runs[0];
  after.path = "after.json";
  after.file.run.id = "after";
  after.file.run.started = "2026-11-22T09:00:00Z";
  // TCP latency 30% worse in every sample: the comparison must call it, with the ratio.
  for (auto& c : after.file.results)
    if (c.benchmark == "net.tcp.latency")
      for (auto& p : c.points) {
        for (auto& v : p.samples)
          v *= 1.3;
        p.stats.median *= 1.3;
      }
  runs.push_back(after);
  check_and_label(runs);
  const auto doc = build_report(runs, reference_set::builtin());
  const auto* s = find_section(doc, "Comparison across runs");
  ASSERT_NE(s, nullptr);
  const auto tables = blocks_of<table>(*s);
  ASSERT_FALSE(tables.empty());
  const auto& t = *tables[0];
  EXPECT_EQ(t.header[3], runs[0].label);
  EXPECT_EQ(t.header[4], runs[1].label);
  // Only what changed is listed: every TCP latency point, none of the unchanged ones.
  std::size_t slower = 0;
  for (const auto& row : t.rows) {
    EXPECT_EQ(row[0], "net.tcp.latency");
    EXPECT_EQ(row[5], "1.30x");
    EXPECT_EQ(row[6], runs[0].label) << "the first run is better";
    slower += row[7] == "SLOWER";
  }
  EXPECT_EQ(slower, runs[0].file.results[0].points.size());
  bool counted = false;
  for (const auto* p : blocks_of<paragraph>(*s))
    counted = counted || p->text.find("SAME") != std::string::npos;
  EXPECT_TRUE(counted) << "the unchanged points are counted";
  EXPECT_EQ(
      find_section(build_report({runs[0]}, reference_set::builtin()), "Comparison across runs"),
      nullptr);
}

class ReportBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("gpubench-report-bad-" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(m_dir / name) << text;
    return m_dir / name;
  }
  static std::string error_of(const std::vector<std::filesystem::path>& paths) {
    try {
      load_runs(paths);
    } catch (const core::input_error& e) {
      return e.what();
    }
    return "no error";
  }
  std::filesystem::path m_dir;
};

TEST_F(ReportBadInput, EachErrorNamesTheFile) {
  std::ifstream in(fixtures() / "network.json");
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto missing = m_dir / "missing.json";
  EXPECT_NE(error_of({missing}).find("missing.json: cannot open"), std::string::npos);
  const auto empty = write("empty.json", "");
  EXPECT_NE(error_of({empty}).find("empty.json: empty file"), std::string::npos);
  const auto truncated = write("truncated.json", good.substr(0, good.size() / 2));
  EXPECT_NE(error_of({truncated}).find("truncated.json: not valid JSON"), std::string::npos);
  const auto wrong = write("wrong.json", R"({"schema": "other/2"})");
  const std::string wrong_error = error_of({wrong});
  EXPECT_EQ(wrong_error.rfind(wrong.string() + ": ", 0), 0u) << wrong_error;
  EXPECT_NE(wrong_error.find("schema is 'other/2'"), std::string::npos) << wrong_error;
  const auto copy = write("copy.json", good);
  EXPECT_NE(error_of({fixtures() / "network.json", copy}).find("copy.json: the same run as"),
            std::string::npos);
  EXPECT_THROW(load_runs({}), core::usage_error);
}

TEST_F(ReportBadInput, DifferentUnitsForOneBenchmarkAreIncompatible) {
  auto file = core::read_result_file(fixtures() / "network.json");
  file.run.id = "other-run";
  for (auto& c : file.results)
    if (c.benchmark == "net.tcp.latency") c.unit = "ms";
  const auto other = m_dir / "ms.json";
  core::write_result_file(other, file);
  EXPECT_NE(error_of({fixtures() / "network.json", other})
                .find("ms.json: net.tcp.latency is in ms but in us in"),
            std::string::npos);
}

TEST(ReportReferences, MatchOnlyTheirHardware) {
  const auto refs = reference_set::builtin();
  for (const auto& f : refs.figures())
    EXPECT_FALSE(f.source.empty()) << f.what;
  const nlohmann::json h100 = {{"gpus", {{{"name", "NVIDIA H100 80GB HBM3"}}}}};
  const nlohmann::json a100 = {{"gpus", {{{"name", "NVIDIA A100-SXM4-80GB"}}}}};
  core::case_result h2d;
  h2d.benchmark = "any.id";  // matched by kind and metric, whatever the benchmark's id
  h2d.kind = core::host_gpu_kind(core::directions::to_gpu, {"gpu", "numa"});
  h2d.metric = "bandwidth";
  h2d.params = {{"memory", "pinned"}, {"gpu", 0}};
  EXPECT_EQ(refs.matching(h2d, h100).size(), 1u);
  ASSERT_EQ(refs.matching(h2d, a100).size(), 1u);
  EXPECT_EQ(refs.matching(h2d, a100)[0]->low, 25.9);
  EXPECT_TRUE(refs.matching(h2d, nlohmann::json::object()).empty());
  auto latency = h2d;
  latency.metric = "latency";
  EXPECT_TRUE(refs.matching(latency, h100).empty());
  auto back = h2d;
  back.kind.direction = core::directions::to_host;
  ASSERT_EQ(refs.matching(back, h100).size(), 1u);
  EXPECT_NE(refs.matching(back, h100)[0]->what.find("device to host"), std::string::npos);
  auto pageable = h2d;
  pageable.params["memory"] = "pageable";
  EXPECT_EQ(refs.matching(pageable, h100).size(), 0u);
  EXPECT_THROW(reference_set(nlohmann::json::object(), "x.json"), core::input_error);
}

}  // namespace
}  // namespace gpubench::reports

// fontconfig, under pango, keeps its caches until the process ends, by design; LeakSanitizer
// would report them in the ASan run. Only that library is exempt, so a cairo or pango object
// the report code forgets to release is still reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libfontconfig.so\n";
}

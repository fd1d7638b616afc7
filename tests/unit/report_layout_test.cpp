// The report's page one and table layout: the machine diagram built from a run's own topology
// (boxes, edges, colours by % of line rate), the headline rows, the caption/variant split of
// parameters, and where page one and the appendix sit in the document.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "core/result_json.hpp"
#include "reports/model/series.hpp"
#include "reports/page_one/headline_table.hpp"
#include "reports/page_one/machine_diagram.hpp"
#include "reports/page_one/path_figure.hpp"
#include "reports/report_builder.hpp"
#include "reports/views/views.hpp"
#include "tests/unit/report_fixtures.hpp"

namespace gpubench::reports {
namespace {

using namespace model;
using namespace page_one;

using fixture_files::fixtures;
using fixture_files::load;

const diagram_node* node(const diagram& d, const std::string& id) {
  const auto it = std::find_if(d.nodes.begin(), d.nodes.end(),
                               [&](const diagram_node& n) { return n.id == id; });
  return it == d.nodes.end() ? nullptr : &*it;
}

const diagram_edge* edge(const diagram& d, const std::string& from, const std::string& to) {
  const auto it = std::find_if(d.edges.begin(), d.edges.end(),
                               [&](const diagram_edge& e) { return e.from == from && e.to == to; });
  return it == d.edges.end() ? nullptr : &*it;
}

bool has_line(const diagram_edge& e, const std::string& text) {
  return std::any_of(e.lines.begin(), e.lines.end(),
                     [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

// A run made in memory: a system block and cases with one point each.
run_input synthetic(nlohmann::json system) {
  run_input r;
  r.path = "synthetic.json";
  r.label = "synthetic";
  r.file.system = std::move(system);
  return r;
}

core::case_result bandwidth_case(const std::string& id, nlohmann::json params, double median,
                                 double peak) {
  core::case_result c;
  c.benchmark = id;
  c.kind = core::kind_of_format_1_0(id);  // what the benchmark of this id declares
  c.params = std::move(params);
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  if (peak > 0) c.peak = core::peak_info{peak, "GB/s", "test line rate"};
  core::point_result p;
  p.bytes = 1 << 26;
  p.stats.median = median;
  p.stats.count = 5;
  c.points.push_back(p);
  return c;
}

TEST(LineBand, ThresholdsAreEightyAndFiftyPercent) {
  EXPECT_EQ(band_of(0.80), line_band::good);
  EXPECT_EQ(band_of(1.02), line_band::good);
  EXPECT_EQ(band_of(0.79), line_band::fair);
  EXPECT_EQ(band_of(0.50), line_band::fair);
  EXPECT_EQ(band_of(0.49), line_band::poor);
  EXPECT_EQ(band_of(std::nan("")), line_band::unknown);
}

TEST(MachineDiagram, FourGpusOnTwoNumaNodesWithNvlink) {
  const auto runs = load({"gpu-h100.json"});
  const auto d = machine_diagram(runs[0]);
  for (const char* id : {"mem0", "cpu0", "mem1", "cpu1", "gpu0", "gpu1", "gpu2", "gpu3", "peers"})
    EXPECT_NE(node(d, id), nullptr) << id;
  EXPECT_EQ(node(d, "peers")->label, "NVLink");
  EXPECT_EQ(node(d, "network"), nullptr);  // no NIC in the system block, nothing measured on one
  // GPU 2 sits on NUMA node 1 (its numa_node), so its PCIe edge starts there.
  EXPECT_NE(edge(d, "cpu1", "gpu2"), nullptr);
  EXPECT_EQ(edge(d, "cpu0", "gpu2"), nullptr);
  // GPU 0: H2D 54.8 of 63 GB/s (87 %), D2H 49.8 (79 %): the edge takes the worse band.
  const auto* e = edge(d, "cpu0", "gpu0");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(has_line(*e, "H2D 54.85 GB/s, 87 % of line")) << e->lines[0];
  EXPECT_TRUE(has_line(*e, "D2H 49.78 GB/s, 79 % of line"));
  EXPECT_TRUE(has_line(*e, "PCIe gen5 x16"));
  EXPECT_EQ(e->band, line_band::fair);
  EXPECT_TRUE(e->measured);
  // GPU 1 has no copy measured: its edge is the PCIe link only, not measured, no colour.
  const auto* e1 = edge(d, "cpu0", "gpu1");
  ASSERT_NE(e1, nullptr);
  EXPECT_FALSE(e1->measured);
  EXPECT_EQ(e1->band, line_band::unknown);
  // The slowest pair from GPU 0 is 0 -> 3 at 356.2 of 450 GB/s (79 %).
  const auto* p = edge(d, "gpu0", "peers");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(has_line(*p, "slowest pair 356.2 GB/s, 79 % of line"));
  EXPECT_EQ(p->band, line_band::fair);
}

TEST(MachineDiagram, DegradedPcieLinkIsPoorAndShowsCapableWidth) {
  auto run = synthetic({{"numa_nodes", 1},
                        {"gpus",
                         {{{"index", 0},
                           {"name", "GPU X"},
                           {"numa_node", 0},
                           {"pcie",
                            {{"current", {{"generation", 4}, {"width", 8}}},
                             {"max", {{"generation", 4}, {"width", 16}}},
                             {"usable", {{"generation", 4}, {"width", 16}}}}}}}}});
  run.file.results.push_back(
      bandwidth_case("gpu.h2d", {{"gpu", 0}, {"memory", "pinned"}}, 12.0, 31.5));
  const auto d = machine_diagram(run);
  const auto* e = edge(d, "cpu0", "gpu0");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(has_line(*e, "PCIe gen4 x8 of gen4 x16"));
  EXPECT_TRUE(has_line(*e, "H2D 12.00 GB/s, 38 % of line"));
  EXPECT_EQ(e->band, line_band::poor);
  EXPECT_EQ(node(d, "peers"), nullptr);  // one GPU: no peer fabric
}

TEST(MachineDiagram, NoGpuNetworkHostShowsNicsAndRdmaToTheNetwork) {
  const auto runs = load({"network.json"});
  const auto d = machine_diagram(runs[0]);
  EXPECT_EQ(node(d, "gpu0"), nullptr);
  ASSERT_NE(node(d, "network"), nullptr);
  EXPECT_NE(node(d, "network")->detail.find("198.18.0.2"), std::string::npos);
  const auto* tcp = edge(d, "nic:ens1f0np0", "network");
  ASSERT_NE(tcp, nullptr);
  EXPECT_TRUE(has_line(*tcp, "TCP 3.66 GB/s, 29 % of line"));
  EXPECT_TRUE(has_line(*tcp, "TCP p50 "));
  EXPECT_EQ(tcp->band, line_band::poor);
  const auto* rdma = edge(d, "rdma:mlx5_0", "network");
  ASSERT_NE(rdma, nullptr);
  EXPECT_TRUE(has_line(*rdma, "RDMA 22.34 GB/s, 89 % of line"));
  EXPECT_EQ(rdma->band, line_band::good);
  // Every edge's ends are boxes of the diagram.
  for (const auto& e : d.edges) {
    EXPECT_NE(node(d, e.from), nullptr) << e.from;
    EXPECT_NE(node(d, e.to), nullptr) << e.to;
  }
}

TEST(MachineDiagram, BareLaptopAndVmStillGetMemoryAndCpu) {
  const auto run = synthetic({{"host", "laptop"}, {"virtualization", "vmware"}});
  const auto d = machine_diagram(run);
  EXPECT_NE(node(d, "mem0"), nullptr);
  EXPECT_NE(node(d, "cpu0"), nullptr);
  EXPECT_EQ(d.nodes.size(), 2u);
  EXPECT_GE(d.rows, 1);
}

TEST(MachineDiagram, EightGpusAndNetworkDevicesKeepTheirOwnRowsAndColumns) {
  const auto runs = load({"allreduce.json"});
  const auto d = machine_diagram(runs[0]);
  int gpus = 0;
  for (const auto& n : d.nodes)
    if (n.kind == "gpu") ++gpus;
  EXPECT_EQ(gpus, 8);
  // Devices on one NUMA node never share a row.
  for (const auto& a : d.nodes)
    for (const auto& b : d.nodes)
      if (&a != &b && a.column == b.column) {
        const bool apart = a.row + a.row_span <= b.row || b.row + b.row_span <= a.row;
        EXPECT_TRUE(apart) << a.id << " and " << b.id;
      }
  const auto* net = node(d, "network");
  ASSERT_NE(net, nullptr);
  EXPECT_NE(net->detail.find("4 nodes"), std::string::npos);
}

TEST(ParameterSplit, SharedParametersGoToTheCaptionVaryingOnesToTheVariant) {
  const auto runs = load({"network.json"});
  std::vector<case_ref> latency;
  for (const auto& c : runs[0].file.results)
    if (c.benchmark.find(".latency") != std::string::npos) latency.push_back({&runs[0], &c, {}});
  const auto split = split_parameters(latency);
  // TCP has peer and streams, RDMA device, op and memory: only op differs between cases of
  // one benchmark; the rest is said once.
  EXPECT_EQ(split.varying, std::vector<std::string>{"op"});
  EXPECT_NE(split.shared.find("peer=198.18.0.2:18515"), std::string::npos);
  EXPECT_NE(split.shared.find("device=mlx5_0"), std::string::npos);
  label_cases(latency);
  EXPECT_EQ(latency[0].label, "tcp");
  EXPECT_EQ(latency[1].label, "rdma, op=send");
}

TEST(ParameterSplit, KeyMissingInOneCaseOfABenchmarkVaries) {
  const auto runs = load({"gpu-h100.json"});
  auto a = bandwidth_case("gpu.h2d", {{"gpu", 0}, {"numa", 0}}, 50, 63);
  auto b = bandwidth_case("gpu.h2d", {{"gpu", 0}}, 40, 63);
  std::vector<case_ref> cases = {{&runs[0], &a, {}}, {&runs[0], &b, {}}};
  const auto split = split_parameters(cases);
  EXPECT_EQ(split.varying, std::vector<std::string>{"numa"});
  EXPECT_EQ(split.shared, "gpu=0");
}

TEST(Headline, SlowestHostPathIsAmongLocalHostMemory) {
  auto runs = load({"gpu-h100.json"});
  auto& results = runs[0].file.results;
  results.clear();
  auto local = [](double median) {
    auto c = bandwidth_case("gpu.h2d", {{"gpu", 0}, {"numa", 0}}, median, 63);
    c.context["numa_local"] = true;
    return c;
  };
  auto remote = bandwidth_case("gpu.h2d", {{"gpu", 0}, {"numa", 1}}, 20, 63);
  remote.context["numa_local"] = false;
  results = {remote, local(50), local(45)};
  auto rows = headline_rows(runs[0]);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].figure.value, 45);  // not the remote node's 20
  EXPECT_EQ(rows[0].path, "Host to GPU (pinned): slowest of 2 (GPU 0)");
  // With only remote host memory measured, the row says so.
  results = {remote};
  rows = headline_rows(runs[0]);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].path, "Host to GPU (pinned) (GPU 0, host memory on a remote NUMA node)");
}

TEST(Headline, SlowestGpuPairAndBestNetworkCase) {
  const auto gpu = load({"gpu-h100.json"});
  const auto rows = headline_rows(gpu[0]);
  const auto p2p = std::find_if(rows.begin(), rows.end(),
                                [](const headline_row& r) { return r.key == "gpu_gpu nvlink"; });
  ASSERT_NE(p2p, rows.end());
  EXPECT_EQ(p2p->path, "GPU to GPU over nvlink: slowest of 12 (GPU 0 to 3)");
  EXPECT_NEAR(p2p->figure.value, 356.21225, 1e-9);
  const auto net = load({"network.json"});
  const auto t = headline_table(net[0], reference_set::builtin());
  ASSERT_FALSE(t.rows.empty());
  const auto rdma = std::find_if(t.rows.begin(), t.rows.end(),
                                 [](const auto& r) { return r[0].rfind("RDMA latency", 0) == 0; });
  ASSERT_NE(rdma, t.rows.end());
  EXPECT_EQ((*rdma)[0], "RDMA latency, p50 (op=write, memory=host)");  // 3.85 beats 3.92 us
}

// A benchmark the report code has never heard of reaches page one by the kind it declares.
TEST(Headline, NewBenchmarkOfAKnownKindIsOnPageOne) {
  auto runs = load({"network.json"});
  for (auto& c : runs[0].file.results)
    if (c.kind.transport == "tcp" && c.metric == "bandwidth") {
      c.benchmark = "net.ucx.bandwidth";
      c.kind = core::network_kind("ucx", {"peer"});
    }
  const auto rows = headline_rows(runs[0]);
  const auto ucx = std::find_if(rows.begin(), rows.end(), [](const headline_row& r) {
    return r.path.starts_with("UCX bandwidth");
  });
  ASSERT_NE(ucx, rows.end());
  EXPECT_EQ(ucx->result->benchmark, "net.ucx.bandwidth");
  const auto parts = views::measurement_sections(runs, reference_set::builtin());
  EXPECT_TRUE(std::any_of(parts.views.begin(), parts.views.end(), [](const section& v) {
    return v.title.starts_with("Network bandwidth: RDMA and UCX");
  }));
}

TEST(Headline, SideBySideHasAColumnPerRunAndARatio) {
  auto runs = load({"network.json"});
  auto slower = runs[0];
  slower.path = "slower.json";
  slower.file.run.id = "slower";
  for (auto& c : slower.file.results)
    for (auto& p : c.points)
      p.stats.median *= c.better == "lower" ? 2 : 0.5;
  runs.push_back(slower);
  check_and_label(runs);
  const auto t = side_by_side_table(runs);
  ASSERT_EQ(t.header.size(), 4u);  // path, two runs, ratio
  const auto bw = std::find_if(t.rows.begin(), t.rows.end(),
                               [](const auto& r) { return r[0] == "RDMA bandwidth"; });
  ASSERT_NE(bw, t.rows.end());
  EXPECT_EQ((*bw)[3], "0.50x worse");
}

TEST(ReportLayout, PageOneFirstAppendixLast) {
  const auto runs = load({"gpu-h100.json"});
  const auto doc = build_report(runs, reference_set::builtin());
  ASSERT_FALSE(doc.sections.empty());
  EXPECT_EQ(doc.sections[0].title.rfind("The interconnect story", 0), 0u);
  const auto& blocks = doc.sections[0].blocks;
  EXPECT_TRUE(std::any_of(blocks.begin(), blocks.end(),
                          [](const block& b) { return std::holds_alternative<diagram>(b); }));
  std::size_t appendix = doc.sections.size();
  for (std::size_t i = 0; i < doc.sections.size(); ++i)
    if (doc.sections[i].title.rfind("Appendix A", 0) == 0) appendix = i;
  ASSERT_LT(appendix, doc.sections.size());
  // Before the appendix: no table with a row per message size (compact tables only).
  for (std::size_t i = 0; i < appendix; ++i)
    for (const auto& b : doc.sections[i].blocks) {
      if (const auto* t = std::get_if<table>(&b)) {
        EXPECT_EQ(t->caption.find("per message size"), std::string::npos) << t->caption;
      }
    }
}

}  // namespace
}  // namespace gpubench::reports

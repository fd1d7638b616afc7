// The cluster section of a report for sparse sweeps, both ways of bandwidth and leaf switches
// (reports/cluster/): result files built by hand, the verdict's suspects given as the contract
// says (cluster/suspects.hpp), so the report is tested apart from how the verdict finds them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/cluster.hpp"
#include "reports/cluster/cluster_report.hpp"
#include "reports/page_one/findings/cluster_suspect.hpp"
#include "reports/render/charts.hpp"

namespace gpubench::reports::cluster {
namespace {

using gpubench::cluster::cluster_verdict;
using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;

// A figure of one way: `from` sends to `to`.
using way_figure = std::function<double(std::size_t from, std::size_t to)>;

// n nodes n0..; bandwidth measured both ways (to_peer: b -> a, from_peer: a -> b in pair
// {a < b}) and latency, over `list` (empty: every pair) with the figures `bw` gives.
core::result_file make_file(std::size_t n, const std::vector<core::planned_pair>& list,
                            const way_figure& bw, std::vector<std::string> leaves = {}) {
  core::cluster_section c;
  for (std::size_t i = 0; i < n; ++i) {
    core::cluster_node node;
    node.name = "n" + std::to_string(i);
    node.ranks = {static_cast<int>(i)};
    c.nodes.push_back(node);
  }
  c.pair_list = list;
  c.leaves = std::move(leaves);
  if (!list.empty()) {
    c.plan.method = "matchings";
    c.plan.matchings = 2;
    c.plan.seed = 7;
  }
  const std::size_t slots = core::slot_count(c);
  auto measurement = [&](const std::string& direction) {
    core::pair_measurement m;
    m.benchmark = "net.tcp.bandwidth";
    m.params = {{"streams", 1}, {"direction", direction}};
    m.bytes = 1 << 20;
    m.metric = "bandwidth";
    m.unit = "GB/s";
    m.better = "higher";
    for (std::size_t s = 0; s < slots; ++s) {
      const auto p = core::slot_pair(c, s);
      m.median.push_back(direction == "to_peer" ? bw(p.b, p.a) : bw(p.a, p.b));
      m.p99.push_back(m.median.back());
      m.count.push_back(5);
    }
    return m;
  };
  c.pairs.push_back(measurement("to_peer"));
  c.pairs.push_back(measurement("from_peer"));
  core::pair_measurement lat;
  lat.benchmark = "net.tcp.latency";
  lat.params = {{"streams", 1}};
  lat.bytes = 8;
  lat.metric = "latency";
  lat.unit = "us";
  lat.better = "lower";
  for (std::size_t s = 0; s < slots; ++s) {
    lat.median.push_back(10.0);
    lat.p99.push_back(12.0);
    lat.count.push_back(1000);
  }
  c.pairs.push_back(lat);
  core::result_file f;
  f.cluster = std::move(c);
  return f;
}

// Two matchings of 8 nodes: 8 of the 28 pairs.
std::vector<core::planned_pair> two_matchings() {
  return {{0, 1, 0}, {2, 3, 0}, {4, 5, 0}, {6, 7, 0}, {0, 2, 1}, {1, 3, 1}, {4, 6, 1}, {5, 7, 1}};
}

// n3 sends at a fifth of the others, receives as they do.
double n3_slow_to_send(std::size_t from, std::size_t) {
  return from == 3 ? 0.2 : 1.0;
}

std::vector<model::section> sections(const core::result_file& f, cluster_verdict v = {}) {
  return cluster_run_sections("test", f, v);
}

std::vector<const model::heatmap*> heatmaps(const std::vector<model::section>& s) {
  std::vector<const model::heatmap*> out;
  for (const auto& sec : s)
    for (const auto& b : sec.blocks)
      if (const auto* h = std::get_if<model::heatmap>(&b)) out.push_back(h);
  return out;
}

const model::table* find_table(const std::vector<model::section>& s, const std::string& caption) {
  for (const auto& sec : s)
    for (const auto& b : sec.blocks)
      if (const auto* t = std::get_if<model::table>(&b))
        if (t->caption.rfind(caption, 0) == 0) return t;
  return nullptr;
}

std::string all_text(const std::vector<model::section>& s) {
  std::string out;
  for (const auto& sec : s)
    for (const auto& b : sec.blocks) {
      if (const auto* p = std::get_if<model::paragraph>(&b)) out += p->text + "\n";
      if (const auto* n = std::get_if<model::note>(&b)) out += n->text + "\n";
    }
  return out;
}

std::size_t column(const model::table& t, const std::string& header) {
  for (std::size_t i = 0; i < t.header.size(); ++i)
    if (t.header[i].find(header) != std::string::npos) return i;
  ADD_FAILURE() << "no column " << header;
  return 0;
}

suspect make_suspect(suspect_kind kind, std::string node, std::string direction,
                     std::string peer = "") {
  suspect s;
  s.kind = kind;
  s.node = std::move(node);
  s.peer = std::move(peer);
  s.direction = std::move(direction);
  s.benchmark = "net.tcp.bandwidth";
  s.value = 0.2;
  s.cluster_median = 1.0;
  s.unit = "GB/s";
  s.evidence = "evidence of " + s.node;
  return s;
}

TEST(ClusterReport, SparseSweepShowsItsMeasuredCellsAndLeavesTheOthersEmpty) {
  const auto f = make_file(8, two_matchings(), [](std::size_t a, std::size_t b) {
    return 1.0 + 0.01 * static_cast<double>(a) + 0.001 * static_cast<double>(b);
  });
  const auto s = sections(f);
  const auto maps = heatmaps(s);
  ASSERT_EQ(maps.size(), 2u);  // bandwidth both ways as one matrix, latency
  const auto& h = *maps[0];
  ASSERT_EQ(h.values.size(), 8u);
  std::size_t filled = 0;
  for (std::size_t r = 0; r < 8; ++r)
    for (std::size_t c = 0; c < 8; ++c)
      if (std::isfinite(h.values[r][c])) {
        ++filled;
        EXPECT_DOUBLE_EQ(h.values[r][c],
                         1.0 + 0.01 * static_cast<double>(r) + 0.001 * static_cast<double>(c));
      }
  EXPECT_EQ(filled, 16u);                   // 8 pairs, both ways
  EXPECT_TRUE(std::isnan(h.values[0][3]));  // not in the sweep: empty, not zero
  EXPECT_TRUE(std::isnan(h.values[3][0]));
  EXPECT_DOUBLE_EQ(h.values[5][7], 1.057);
  // Latency has no direction: symmetric.
  EXPECT_DOUBLE_EQ(maps[1]->values[7][5], 10.0);
  EXPECT_DOUBLE_EQ(maps[1]->values[5][7], 10.0);
  EXPECT_TRUE(std::isnan(maps[1]->values[0][7]));
}

TEST(ClusterReport, OverviewSaysHowThePairsWereChosen) {
  const auto sparse = all_text(sections(make_file(8, two_matchings(), n3_slow_to_send)));
  EXPECT_NE(sparse.find("2 random matchings (seed 7): 8 of 28 node pairs measured"),
            std::string::npos)
      << sparse;
  EXPECT_NE(sparse.find("bandwidth measured both ways"), std::string::npos);
  EXPECT_NE(sparse.find("Grey cells are pairs this sweep did not measure"), std::string::npos);
  const auto dense = all_text(sections(make_file(8, {}, n3_slow_to_send)));
  EXPECT_NE(dense.find("every pair: 28 of 28 node pairs measured"), std::string::npos) << dense;
  EXPECT_EQ(dense.find("Grey cells"), std::string::npos);
  // Large counts with separators: 4,096 nodes have 8,386,560 pairs.
  auto big = make_file(8, two_matchings(), n3_slow_to_send);
  big.cluster->pairs.front().median[0] = std::nullopt;
  big.cluster->pairs[1].median[0] = std::nullopt;
  big.cluster->pairs[2].median[0] = std::nullopt;
  EXPECT_NE(all_text(sections(big)).find("7 of 28 node pairs measured (8 planned)"),
            std::string::npos);
}

TEST(ClusterReport, BothWaysAreOneDirectedMatrixRowSendsColumnReceives) {
  const auto f = make_file(8, {}, n3_slow_to_send);
  const auto s = sections(f);
  const auto maps = heatmaps(s);
  ASSERT_EQ(maps.size(), 2u);
  const auto& h = *maps[0];
  EXPECT_EQ(h.row_label, "sending node");
  EXPECT_EQ(h.col_label, "receiving node");
  EXPECT_EQ(h.title.find("direction"), std::string::npos) << h.title;
  for (std::size_t other = 0; other < 8; ++other) {
    if (other == 3) continue;
    EXPECT_DOUBLE_EQ(h.values[3][other], 0.2) << "n3 -> n" << other;  // n3 sends slowly
    EXPECT_DOUBLE_EQ(h.values[other][3], 1.0) << "n" << other << " -> n3";
  }
  EXPECT_TRUE(std::isnan(h.values[3][3]));
}

TEST(ClusterReport, OneWayAloneStaysASymmetricMatrix) {
  auto f = make_file(4, {}, [](std::size_t, std::size_t) { return 1.0; });
  f.cluster->pairs.erase(f.cluster->pairs.begin() + 1);  // from_peer gone: a file before 1.4
  const auto s = sections(f);
  const auto maps = heatmaps(s);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0]->row_label, "node");
  EXPECT_DOUBLE_EQ(maps[0]->values[0][1], 1.0);
  EXPECT_DOUBLE_EQ(maps[0]->values[1][0], 1.0);
  EXPECT_NE(maps[0]->title.find("direction=to_peer"), std::string::npos) << maps[0]->title;
}

TEST(ClusterReport, NodeTableShowsSendingAndReceivingApart) {
  const auto s = sections(make_file(8, two_matchings(), n3_slow_to_send));
  const auto* t = find_table(s, "Nodes");
  ASSERT_NE(t, nullptr);
  const std::size_t sending = column(*t, "sending, pair median");
  const std::size_t receiving = column(*t, "receiving, pair median");
  ASSERT_NE(sending, receiving);
  ASSERT_EQ(t->rows.size(), 8u);
  EXPECT_EQ(t->rows[3][0], "n3");
  EXPECT_EQ(t->rows[3][sending], "0.2");
  EXPECT_EQ(t->rows[3][receiving], "1.00");
  EXPECT_EQ(t->rows[1][sending], "1.00");   // n1 measured with n0 and n3
  EXPECT_EQ(t->rows[1][receiving], "0.6");  // from n0 (1) and n3 (0.2): their median
  EXPECT_EQ(column(*t, "net.tcp.latency 8B (streams=1) pair median"), sending + 2);
}

TEST(ClusterReport, DirectionOfASuspectIsShownAndMarkedOneWay) {
  const auto f = make_file(8, {}, n3_slow_to_send);
  cluster_verdict v;
  v.named.push_back(make_suspect(suspect_kind::node, "n3", "send"));
  v.named.push_back(make_suspect(suspect_kind::node, "n5", "receive"));
  v.named.push_back(make_suspect(suspect_kind::link, "n1", "send", "n6"));
  const auto s = sections(f, v);
  const auto* t = find_table(s, "Suspects");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows.size(), 3u);
  EXPECT_EQ(t->rows[0][1], "slow to send");
  EXPECT_EQ(t->rows[1][1], "slow to receive");
  EXPECT_EQ(t->rows[2][1], "slow link, one way");
  EXPECT_EQ(t->rows[2][2], "n1 -> n6");
  const auto& h = *heatmaps(s)[0];
  EXPECT_EQ(h.marked_rows, std::vector<std::size_t>{3});
  EXPECT_EQ(h.marked_cols, std::vector<std::size_t>{5});
  EXPECT_TRUE(h.marked_lines.empty());
  ASSERT_EQ(h.marked_cells.size(), 1u);  // the slow way only
  EXPECT_EQ(h.marked_cells[0], (std::pair<std::size_t, std::size_t>{1, 6}));
  // On the latency matrix (no direction) the node is marked whole.
  EXPECT_EQ(heatmaps(s)[1]->marked_lines, (std::vector<std::size_t>{3, 5}));
  const auto* nodes = find_table(s, "Nodes");
  ASSERT_NE(nodes, nullptr);
  EXPECT_EQ(nodes->rows[3].back(), "slow to send");
  EXPECT_EQ(nodes->rows[6].back(), "link n1 -> n6");
}

TEST(ClusterReport, NodesGroupedByLeafWithBoundariesAndTheUplinkWithItsNodes) {
  // Leaves interleaved by index: the report groups them, leafB first (where n0 is).
  const std::vector<std::string> leaves{"leafB", "leafA", "leafB", "leafA",
                                        "leafB", "leafA", "leafB", ""};
  const auto f = make_file(8, two_matchings(), n3_slow_to_send, leaves);
  cluster_verdict v;
  v.named.push_back(make_suspect(suspect_kind::node, "n3", "send"));
  v.named.push_back(make_suspect(suspect_kind::uplink, "leafB", ""));
  const auto s = sections(f, v);
  const auto& h = *heatmaps(s)[0];
  EXPECT_EQ(h.rows, (std::vector<std::string>{"n0", "n2", "n4", "n6", "n1", "n3", "n5", "n7"}));
  ASSERT_EQ(h.groups.size(), 3u);
  EXPECT_EQ(h.groups[0].name, "leafB");
  EXPECT_TRUE(h.groups[0].marked_rows);  // the slow uplink, both ways
  EXPECT_TRUE(h.groups[0].marked_cols);
  EXPECT_EQ(h.groups[1].first, 4u);
  EXPECT_FALSE(h.groups[1].marked_rows || h.groups[1].marked_cols);
  EXPECT_EQ(h.groups[2].name, "no leaf known");
  EXPECT_EQ(h.marked_rows, std::vector<std::size_t>{5});  // n3 at position 5
  // n3 -> n1 (slow to send) sits at (position 5, position 4).
  EXPECT_DOUBLE_EQ(h.values[5][4], 0.2);
  EXPECT_DOUBLE_EQ(h.values[4][5], 1.0);

  const auto* t = find_table(s, "Suspects");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows.size(), 2u);
  // Grouped by switch: leafB's uplink (ranked 2nd) before leafA's n3 (ranked 1st).
  EXPECT_EQ(t->rows[0][0], "2");
  EXPECT_EQ(t->rows[0][1], "slow uplink");
  EXPECT_EQ(t->rows[0][2], "leafB uplink");
  EXPECT_EQ(t->rows[0][3], "leafB");
  EXPECT_NE(t->rows[0].back().find("4 nodes: n0, n2, n4, n6"), std::string::npos)
      << t->rows[0].back();
  EXPECT_EQ(t->rows[1][3], "leafA");

  const auto* nodes = find_table(s, "Nodes by leaf switch");
  ASSERT_NE(nodes, nullptr);
  EXPECT_EQ(nodes->header[1], "leaf switch");
  EXPECT_EQ(nodes->rows[0][0], "n0");
  EXPECT_EQ(nodes->rows[4][0], "n1");
  EXPECT_EQ(nodes->rows[4][1], "leafA");
  EXPECT_EQ(nodes->rows[7][1], "no leaf known");
  EXPECT_NE(nodes->rows[0].back().find("behind leafB's slow uplink"), std::string::npos);
  EXPECT_NE(all_text(s).find("Nodes on 3 leaf switches"), std::string::npos);
}

TEST(ClusterReport, NothingAboutSwitchesWithoutLeaves) {
  const auto s = sections(make_file(8, two_matchings(), n3_slow_to_send));
  EXPECT_TRUE(heatmaps(s)[0]->groups.empty());
  EXPECT_EQ(find_table(s, "Nodes")->header[1], "status");
  EXPECT_EQ(all_text(s).find("leaf"), std::string::npos);
}

TEST(ClusterReport, LargeSparseMatrixIsARasterOfItsCellsOnly) {
  // 200 nodes, 2 matchings (i with i^1, i with i^2): 200 pairs of 19,900.
  std::vector<core::planned_pair> list;
  for (std::size_t i = 0; i < 200; ++i)
    for (std::size_t k : {1u, 2u})
      if ((i ^ k) > i && (i ^ k) < 200) list.push_back({i, i ^ k, k - 1});
  const auto f = make_file(200, list, n3_slow_to_send);
  const auto s = sections(f);
  const auto maps = heatmaps(s);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_TRUE(maps[0]->raster);
  EXPECT_TRUE(maps[0]->values.empty());  // no 200 x 200 grid of empty cells
  EXPECT_EQ(maps[0]->cells.size(), 2 * list.size());
  EXPECT_EQ(maps[1]->cells.size(), 2 * list.size());  // latency mirrored
}

TEST(ClusterReport, SparseFileThroughTheVerdictIsDrawn) {
  // What `report` does: the verdict of the file, then the sections; the matrix holds the sweep's
  // figures at their pairs (a reader of pair_index() slots would find none of them).
  model::run_input run;
  run.file = make_file(8, two_matchings(), n3_slow_to_send);
  run.label = "sparse";
  const auto s = cluster_sections({run});
  const auto maps = heatmaps(s);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_DOUBLE_EQ(maps[0]->values[3][1], 0.2);  // n3 -> n1
  EXPECT_DOUBLE_EQ(maps[0]->values[1][3], 1.0);
  EXPECT_DOUBLE_EQ(maps[0]->values[7][5], 1.0);
  EXPECT_TRUE(std::isnan(maps[0]->values[0][7]));
}

// The width and height in the IHDR of the first PNG embedded in an SVG (base64).
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& svg) {
  const std::string tag = "data:image/png;base64,";
  const auto at = svg.find(tag);
  if (at == std::string::npos) return {0, 0};
  const std::string b64 = svg.substr(at + tag.size(), 32);  // 24 bytes: signature and IHDR
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<unsigned char> bytes;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char ch : b64) {
    const auto v = alphabet.find(ch);
    if (v == std::string::npos) break;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<unsigned char>((acc >> bits) & 0xff));
    }
  }
  if (bytes.size() < 24) return {0, 0};
  auto word = [&](std::size_t i) {
    return (std::uint32_t{bytes[i]} << 24) | (std::uint32_t{bytes[i + 1]} << 16) |
           (std::uint32_t{bytes[i + 2]} << 8) | bytes[i + 3];
  };
  return {word(16), word(20)};
}

TEST(ClusterReport, MatrixOf4096NodesIsASmallImage) {
  if (const auto why = render::charts_unavailable()) GTEST_SKIP() << *why;
  // 4,096 nodes, one matching (i with i^1) both ways, 128 leaves of 32: one pixel per 7x7 block
  // of cells (4,096 pixels a side would be averaged away by any viewer, and 16 M pixels large).
  std::vector<core::planned_pair> list;
  std::vector<std::string> leaves;
  for (std::size_t i = 0; i < 4096; ++i) {
    if (i % 2 == 0) list.push_back({i, i + 1, 0});
    leaves.push_back("leaf" + std::to_string(i / 32));
  }
  const auto f = make_file(4096, list, n3_slow_to_send, leaves);
  cluster_verdict v;
  v.named.push_back(make_suspect(suspect_kind::node, "n3", "send"));
  v.named.push_back(make_suspect(suspect_kind::uplink, "leaf5", "receive"));
  const auto s = sections(f, v);
  const auto maps = heatmaps(s);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0]->cells.size(), 4096u);
  // leaf5's uplink slow into the leaf: its columns (its nodes receiving) only.
  EXPECT_FALSE(maps[0]->groups[5].marked_rows);
  EXPECT_TRUE(maps[0]->groups[5].marked_cols);
  EXPECT_TRUE(maps[1]->groups[5].marked_rows);  // latency: no way, the whole leaf
  EXPECT_TRUE(maps[1]->groups[5].marked_cols);
  const std::string svg = render::heatmap_svg(*maps[0], "t-");
  const auto [w, h] = png_size(svg);
  EXPECT_EQ(w, 586u);  // ceil(4096 / 7)
  EXPECT_EQ(h, 586u);
  EXPECT_LT(svg.size(), 200000u);
}

TEST(ClusterSuspectFinding, SaysTheWayAndTheUplinkInPlainWords) {
  const auto f =
      make_file(8, {}, n3_slow_to_send,
                {"leaf1", "leaf1", "leaf1", "leaf1", "leaf2", "leaf2", "leaf2", "leaf2"});
  const std::vector<suspect> named{make_suspect(suspect_kind::node, "n3", "send"),
                                   make_suspect(suspect_kind::node, "n4", "receive"),
                                   make_suspect(suspect_kind::link, "n1", "receive", "n6"),
                                   make_suspect(suspect_kind::uplink, "leaf2", "send")};
  const auto got = page_one::findings::cluster_suspect_findings(*f.cluster, named);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_NE(got[0].title.find("Node n3 is slow to send"), std::string::npos) << got[0].title;
  EXPECT_NE(got[0].check.find("transmit"), std::string::npos);
  EXPECT_NE(got[1].title.find("Node n4 is slow to receive"), std::string::npos) << got[1].title;
  EXPECT_EQ(got[2].subject, "link n6->n1");
  EXPECT_NE(got[2].title.find("from n6 to n1"), std::string::npos) << got[2].title;
  EXPECT_EQ(got[3].subject, "uplink of leaf2");
  EXPECT_NE(got[3].title.find("uplink of leaf switch leaf2 is slow, out of the leaf"),
            std::string::npos)
      << got[3].title;
  EXPECT_NE(got[3].evidence.find("its 4 nodes: n4, n5, n6, n7"), std::string::npos)
      << got[3].evidence;
}

}  // namespace
}  // namespace gpubench::reports::cluster

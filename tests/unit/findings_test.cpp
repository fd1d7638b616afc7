// The finding rules: each planted fixture (tests/golden/findings) produces exactly its finding,
// a healthy machine and a laptop none; and each rule on small hand-made results.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/result_json.hpp"
#include "reports/page_one/findings/finding.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {
namespace {

using namespace model;

run_input fixture(const std::string& name) {
  run_input r;
  r.path = std::filesystem::path(GPUBENCH_TEST_DATA) / "findings" / name;
  r.file = core::read_result_file(r.path);
  r.label = r.file.system.value("host", std::string("?"));
  return r;
}

std::vector<std::string> rules_of(const std::vector<finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs)
    out.push_back(f.rule + " " + to_string(f.level) + " " + f.subject);
  return out;
}

core::case_result bw_case(const std::string& id, nlohmann::json params, double median,
                          std::uint64_t bytes = 1u << 30) {
  core::case_result c;
  c.benchmark = id;
  c.kind = core::kind_of_format_1_0(id);  // what the benchmark of this id declares
  c.params = std::move(params);
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  core::point_result p;
  p.bytes = bytes;
  p.stats.median = median;
  c.points.push_back(p);
  return c;
}

nlohmann::json gpu_json(int index, int numa, int cur_width, int max_width, int cur_gen = 5,
                        int max_gen = 5) {
  return {{"index", index},
          {"pci_bus_id", "0000:18:00.0"},
          {"numa_node", numa},
          {"pcie",
           {{"current", {{"generation", cur_gen}, {"width", cur_width}}},
            {"max", {{"generation", max_gen}, {"width", max_width}}},
            {"upstream_port_max", {{"generation", max_gen}, {"width", max_width}}}}}};
}

// --- fixtures: exactly the planted finding ---

TEST(Findings, GpuOnX8LinkGivesOnlyTheLinkFinding) {
  const auto fs = evaluate(fixture("gpu-x8.json"));
  ASSERT_EQ(rules_of(fs),
            std::vector<std::string>{"pcie.link_degraded problem GPU 2 (0000:58:00.0)"});
  EXPECT_NE(fs[0].evidence.find("negotiated PCIe 5.0 x8, capable PCIe 5.0 x16"), std::string::npos)
      << fs[0].evidence;
  EXPECT_NE(fs[0].title.find("narrower than capable"), std::string::npos) << fs[0].title;
}

TEST(Findings, StagedPairGivesOnlyThePeerFinding) {
  const auto fs = evaluate(fixture("gpu-staged.json"));
  ASSERT_EQ(rules_of(fs), std::vector<std::string>{"gpu.peer_unavailable problem GPU peer access"});
  EXPECT_NE(fs[0].evidence.find("no peer access between GPU 1<->3"), std::string::npos)
      << fs[0].evidence;
  // What it costs: 9.8 GB/s staged against 24.6 GB/s over P2P, 40 %.
  EXPECT_NE(fs[0].evidence.find("(40 % of the P2P pairs' median)"), std::string::npos)
      << fs[0].evidence;
}

TEST(Findings, RemoteNumaSlowdownGivesOnlyTheNumaFinding) {
  const auto fs = evaluate(fixture("gpu-remote-numa.json"));
  ASSERT_EQ(rules_of(fs), std::vector<std::string>{"gpu.remote_numa warning GPUs 2, 3"});
  EXPECT_NE(fs[0].evidence.find("from node 0"), std::string::npos) << fs[0].evidence;
}

TEST(Findings, SlowPairGivesOnlyThePairFinding) {
  const auto fs = evaluate(fixture("gpu-slow-pair.json"));
  ASSERT_EQ(rules_of(fs), std::vector<std::string>{"gpu.pair_outlier warning GPU 1<->2"});
  EXPECT_NE(fs[0].evidence.find("siblings' median"), std::string::npos) << fs[0].evidence;
}

TEST(Findings, HealthyMachineAndLaptopGiveNone) {
  // healthy.json's links idle at Gen1 (power saving) at full width: not a finding.
  EXPECT_TRUE(evaluate(fixture("healthy.json")).empty())
      << ::testing::PrintToString(rules_of(evaluate(fixture("healthy.json"))));
  EXPECT_TRUE(evaluate(fixture("laptop.json")).empty())
      << ::testing::PrintToString(rules_of(evaluate(fixture("laptop.json"))));
}

TEST(Findings, ProblemsComeFirst) {
  run_input r;
  r.file.system["gpus"] = {gpu_json(0, 0, 8, 16)};
  r.file.results.push_back(bw_case("gpu.h2d", {{"gpu", 0}, {"numa", 0}}, 20));
  for (int n : {2, 4}) {
    auto c = bw_case("coll.allreduce", {{"nodes", n}, {"transport", "tcp"}}, 1);
    c.points[0].extra["busbw"] = 10.0;
    r.file.results.push_back(c);
  }
  const auto fs = evaluate(r);
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].level, severity::problem);
  EXPECT_EQ(fs[1].rule, "collective.scaling");
}

// --- each rule on hand-made results ---

TEST(FindingRules, PcieNeedsTheRateFarBelowTheCapableLine) {
  core::result_file f;
  f.system["gpus"] = {gpu_json(0, 0, 8, 16)};
  // PCIe 5.0 x16 = 63.0 GB/s; half of it is the default threshold.
  f.results.push_back(bw_case("gpu.h2d", {{"gpu", 0}, {"numa", 0}}, 30.0));
  EXPECT_EQ(pcie_link_rule(f, {}).size(), 1u);
  f.results[0].points[0].stats.median = 40.0;  // 63 %: the link may be x8 but copies are fine
  EXPECT_TRUE(pcie_link_rule(f, {}).empty());
  rule_options strict;
  strict.far_below_line = 0.7;
  EXPECT_EQ(pcie_link_rule(f, strict).size(), 1u);
}

TEST(FindingRules, PcieGenerationAloneIsIdlePowerSaving) {
  core::result_file f;
  f.system["gpus"] = {gpu_json(0, 0, 16, 16, 1, 5)};
  EXPECT_TRUE(pcie_link_rule(f, {}).empty());  // not measured: Gen1 at idle is normal
  f.results.push_back(bw_case("gpu.h2d", {{"gpu", 0}, {"numa", 0}}, 55.0));
  EXPECT_TRUE(pcie_link_rule(f, {}).empty());  // measured at full speed
  f.results[0].points[0].stats.median = 3.0;   // measured at Gen1 speed
  const auto fs = pcie_link_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_NE(fs[0].title.find("lower generation"), std::string::npos);
}

TEST(FindingRules, PcieNarrowWidthUnmeasuredIsAWarning) {
  core::result_file f;
  f.system["gpus"] = {gpu_json(0, 0, 8, 16)};
  const auto fs = pcie_link_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].level, severity::warning);
}

TEST(FindingRules, RemoteNumaThreshold) {
  core::result_file f;
  f.system["gpus"] = {gpu_json(0, 1, 16, 16)};
  f.results.push_back(bw_case("gpu.h2d", {{"gpu", 0}, {"numa", 1}}, 50));
  f.results.push_back(bw_case("gpu.h2d", {{"gpu", 0}, {"numa", 0}}, 41));  // 82 %
  EXPECT_TRUE(remote_numa_rule(f, {}).empty());
  f.results[1].points[0].stats.median = 39;  // 78 %
  const auto fs = remote_numa_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_NE(fs[0].title.find("22 % slower"), std::string::npos) << fs[0].title;
}

TEST(FindingRules, PeerAccessFromSkipReasonAndCost) {
  core::result_file f;
  auto skipped = bw_case("gpu.p2p.bandwidth", {{"src", 0}, {"dst", 1}, {"access", "p2p"}}, 0);
  skipped.status = core::case_status::skipped;
  skipped.points.clear();
  skipped.reason = "needs GPU 0 -> GPU 1 peer access: cudaDeviceCanAccessPeer says no";
  f.results.push_back(skipped);
  EXPECT_EQ(peer_access_rule(f, {}).size(), 1u);
  EXPECT_EQ(peer_access_rule(f, {})[0].level, severity::warning);  // no pair has it
  f.results.push_back(
      bw_case("gpu.p2p.bandwidth", {{"src", 2}, {"dst", 3}, {"access", "p2p"}}, 20));
  f.results.push_back(
      bw_case("gpu.p2p.bandwidth", {{"src", 0}, {"dst", 1}, {"access", "staged"}}, 5));
  const auto fs = peer_access_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].level, severity::problem);  // others have it
  EXPECT_NE(fs[0].evidence.find("(25 % of the P2P pairs' median)"), std::string::npos)
      << fs[0].evidence;
}

TEST(FindingRules, PairOutlierNeedsSiblings) {
  core::result_file f;
  const nlohmann::json base = {{"engine", "ce"}, {"op", "write"}, {"direction", "uni"}};
  auto pair = [&](int a, int b, double v) {
    auto p = base;
    p["src"] = a;
    p["dst"] = b;
    return bw_case("gpu.p2p.bandwidth", p, v);
  };
  f.results = {pair(0, 1, 100), pair(1, 0, 50)};
  EXPECT_TRUE(pair_outlier_rule(f, {}).empty());  // two cases: no siblings to judge by
  f.results.push_back(pair(0, 2, 100));
  f.results.push_back(pair(2, 0, 100));
  const auto fs = pair_outlier_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].subject, "GPU 0<->1");
}

TEST(FindingRules, OneGpuSlowInAllItsPairsIsOneFinding) {
  core::result_file f;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      if (a != b)
        f.results.push_back(bw_case("gpu.p2p.bandwidth", {{"src", a}, {"dst", b}},
                                    a == 3 || b == 3 ? 40.0 : 100.0));
  const auto fs = pair_outlier_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].subject, "GPU 3");
}

TEST(FindingRules, HostOutlierAndItsDedupWithTheLink) {
  run_input r;
  for (int g = 0; g < 4; ++g) {
    r.file.system["gpus"].push_back(gpu_json(g, 0, g == 1 ? 8 : 16, 16));
    r.file.results.push_back(bw_case("gpu.h2d", {{"gpu", g}, {"numa", 0}}, g == 1 ? 25 : 55));
  }
  EXPECT_EQ(host_outlier_rule(r.file, {}).size(), 1u);
  const auto fs = evaluate(r);  // the link explains it: one finding
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].rule, "pcie.link_degraded");
}

core::case_result net(const std::string& id, nlohmann::json params, std::uint64_t bytes,
                      double median, nlohmann::json context = nlohmann::json::object()) {
  auto c = bw_case(id, std::move(params), median, bytes);
  if (id.ends_with(".latency")) {  // as the latency benchmarks write their cases
    c.metric = "latency";
    c.unit = "us";
    c.better = "lower";
  }
  c.context = std::move(context);
  return c;
}

TEST(FindingRules, RdmaAgainstTcp) {
  core::result_file f;
  f.results.push_back(net("net.tcp.latency", {}, 8, 12.0));
  f.results.push_back(net("net.rdma.latency", {}, 8, 1.5));
  f.results.push_back(
      net("net.tcp.bandwidth", {}, 1 << 20, 2.0, {{"completion_mode", "blocking"}}));
  f.results.push_back(net("net.rdma.bandwidth", {}, 1 << 20, 11.0, {{"completion_mode", "event"}}));
  f.results[2].points[0].extra["cpu_seconds_per_gb"] = 0.5;
  f.results[3].points[0].extra["cpu_seconds_per_gb"] = 0.05;
  const auto fs = rdma_vs_tcp_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].level, severity::info);
  EXPECT_NE(fs[0].title.find("8.00x lower"), std::string::npos) << fs[0].title;
  EXPECT_NE(fs[0].evidence.find("both sleeping: TCP 0.5, RDMA 0.05 (10.00x)"), std::string::npos)
      << fs[0].evidence;
  EXPECT_NE(fs[0].evidence.find("transport threads only"), std::string::npos) << fs[0].evidence;
  // With both ends' whole machines (TCP's softirq work on other cores in it), those compare.
  f.results[2].points[0].extra["machine_cpu_seconds_per_gb"] = 1.5;
  f.results[3].points[0].extra["machine_cpu_seconds_per_gb"] = 0.1;
  const auto machine = rdma_vs_tcp_rule(f, {});
  ASSERT_EQ(machine.size(), 1u);
  EXPECT_NE(machine[0].evidence.find("(whole machine, both ends), both sleeping: TCP 1.50, RDMA "
                                     "0.1 (15.00x)"),
            std::string::npos)
      << machine[0].evidence;
  // Unlike modes: the CPU cost is not compared.
  f.results[3].context["completion_mode"] = "poll";
  EXPECT_NE(rdma_vs_tcp_rule(f, {})[0].evidence.find("CPU cost not compared"), std::string::npos);
}

TEST(FindingRules, SingleStreamFarBelowWhereSeveralReachLine) {
  core::result_file f;
  auto one = net("net.tcp.bandwidth", {{"streams", 1}}, 1 << 26, 3.0);
  auto eight = net("net.tcp.bandwidth", {{"streams", 8}}, 1 << 26, 11.0);
  one.peak = eight.peak = core::peak_info{12.5, "GB/s", "Ethernet 100 Gb/s"};
  f.results = {one, eight};
  EXPECT_EQ(single_stream_rule(f, {}).size(), 1u);
  f.results[1].points[0].stats.median = 7.0;  // 56 %: several streams do not reach it either
  EXPECT_TRUE(single_stream_rule(f, {}).empty());
}

TEST(FindingRules, StreamHeldBackSelectsByKindAndStreams) {
  core::result_file f;
  auto held = net("net.tcp.bandwidth", {{"streams", 4}, {"direction", "to_peer"}}, 1 << 20, 0.11);
  held.points[0].extra["stream_share_min"] = 0.2;
  held.points[0].extra["stream_share_max"] = 1.3;
  auto fair = held;
  fair.points[0].extra["stream_share_min"] = 0.6;  // uneven, but not held back
  auto single = held;
  single.params["streams"] = 1;  // one stream has no share to miss
  auto copies = bw_case("memory.host.copy", {{"streams", 4}}, 10.0);
  copies.points[0].extra["stream_share_min"] = 0.1;  // not a network case
  auto loopback = held;
  loopback.context["interface"] = "lo";  // no link crossed: the scheduler starves streams there
  f.results = {held, fair, single, copies, loopback};
  auto fs = stream_share_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].rule, "net.stream_held_back");
  EXPECT_EQ(fs[0].subject, "tcp streams");
  EXPECT_NE(fs[0].title.find("20 %"), std::string::npos) << fs[0].title;
  EXPECT_NE(fs[0].evidence.find("the least stream 0.20 and the most 1.30"), std::string::npos)
      << fs[0].evidence;
  // Any network transport that records shares, by its kind: RDMA queue pairs too.
  auto qps = net("net.rdma.bandwidth", {{"streams", 8}}, 1 << 20, 5.0);
  qps.points[0].extra["stream_share_min"] = 0.3;
  f.results = {qps};
  fs = stream_share_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].subject, "rdma streams");
}

TEST(FindingRules, MtuOnFastLinksAndRoce) {
  core::result_file f;
  f.results.push_back(net("net.tcp.bandwidth", {}, 1 << 20, 5,
                          {{"interface", "ens1"}, {"mtu", 1500}, {"speed_mbps", 100000}}));
  f.results.push_back(net("net.tcp.latency", {}, 8, 5,
                          {{"interface", "eno1"}, {"mtu", 1500}, {"speed_mbps", 1000}}));
  f.results.push_back(net("net.rdma.bandwidth", {}, 1 << 20, 5,
                          {{"device", "mlx5_0"}, {"link_layer", "Ethernet"}, {"mtu", 1024}}));
  f.results.push_back(net("net.rdma.bandwidth", {}, 1 << 20, 5,
                          {{"device", "mlx5_1"}, {"link_layer", "InfiniBand"}, {"mtu", 1024}}));
  const auto fs = mtu_rule(f, {});
  ASSERT_EQ(fs.size(), 2u);  // 1 GbE and InfiniBand are not findings
  EXPECT_EQ(fs[0].subject, "interface ens1");
  EXPECT_EQ(fs[1].subject, "RDMA device mlx5_0");
}

TEST(FindingRules, AllreduceScalingFallsOff) {
  core::result_file f;
  for (const auto& [n, busbw] :
       std::vector<std::pair<int, double>>{{1, 50}, {2, 10}, {4, 9}, {8, 6}}) {
    auto c = bw_case("coll.allreduce", {{"nodes", n}, {"backend", "nccl"}}, 1, 1 << 26);
    c.points[0].extra["busbw"] = busbw;
    f.results.push_back(c);
  }
  auto fs = collective_scaling_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].level, severity::warning);
  EXPECT_NE(fs[0].title.find("falls off at 8 nodes"), std::string::npos) << fs[0].title;
  EXPECT_NE(fs[0].evidence.find("4 nodes 9.00 GB/s (90 %)"), std::string::npos) << fs[0].evidence;
  f.results.back().points[0].extra["busbw"] = 8.0;
  fs = collective_scaling_rule(f, {});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].level, severity::info);
}

TEST(FindingRules, NoClusterNoSuspects) {
  EXPECT_TRUE(cluster_suspect_rule(core::result_file{}, {}).empty());
}

}  // namespace
}  // namespace gpubench::reports::page_one::findings

// Every gpu.* benchmark end to end on the stand-in: 4 simulated GPUs, 0<->1 and 2<->3 with
// peer access, the other pairs staged. Every case runs (or skips for the reason it must),
// its data checks pass, nothing faults and nothing is left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "core/result_json.hpp"
#include "gpu_suite_run.hpp"
#include "machine.hpp"

namespace gpubench::tests::standin {
namespace {

bool peers(int a, int b) {
  return machine_config::four_gpus().peers(a, b);
}

// The machine is clean after a run: no fault, nothing leaked, no peer access left on.
void expect_clean(const machine& m) {
  EXPECT_TRUE(m.faults().empty()) << m.faults().front();
  for (const auto& l : m.leaks())
    ADD_FAILURE() << "left behind: " << l;
}

void expect_ok(const core::case_result& c, std::size_t points) {
  EXPECT_EQ(c.status, core::case_status::ok)
      << c.benchmark << " " << c.params.dump() << ": " << c.reason;
  EXPECT_EQ(c.points.size(), points) << c.benchmark << " " << c.params.dump();
}

TEST(StandinGpuSuite, HostCopiesRunOnEveryGpuAndAllAtOnce) {
  // GPUs 2 and 3 say they sit on NUMA node 1, which this host lacks: the cases of node 0
  // then say host memory is local to GPUs 0 and 1 only.
  machine_config config;
  config.numa_nodes = {0, 0, 1, 1};
  machine m(config);
  const auto file = run_gpu_suite("^gpu\\.(h2d|d2h|bidir)$");
  // Per direction: each GPU and all four, pinned with both engines; pageable one GPU one way.
  EXPECT_EQ(file.results.size(), 14u + 14u + 10u);
  for (const auto& c : file.results) {
    expect_ok(c, 2);
    EXPECT_EQ(c.context.at("gpus").at(0).at("name").get<std::string>().rfind("CPU stand-in", 0),
              0u);
    const auto& gpu = c.params.at("gpu");
    if (c.params.at("numa") == 0 && gpu.is_number()) {
      EXPECT_EQ(c.context.at("numa_local"), gpu.get<int>() < 2) << c.params.dump();
    }
  }
  expect_clean(m);
}

TEST(StandinGpuSuite, PeerCopiesRunOnPeerPairsAndStagedOnEveryPair) {
  machine m;
  const auto file = run_gpu_suite("^gpu\\.p2p\\.bandwidth$");
  int ran = 0;
  for (const auto& c : file.results) {
    const int src = c.params.at("src"), dst = c.params.at("dst");
    if (c.params.at("access") == "staged" || peers(src, dst)) {
      expect_ok(c, 2);
      ++ran;
    } else {
      EXPECT_EQ(c.status, core::case_status::skipped) << c.params.dump();
      EXPECT_NE(c.reason.find("cudaDeviceCanAccessPeer says no"), std::string::npos) << c.reason;
    }
  }
  EXPECT_EQ(ran, 8 * 4 + 2 * 12);  // 8 P2P variants on 4 ordered pairs, 2 staged on all 12
  expect_clean(m);
}

TEST(StandinGpuSuite, PointerChasesEndOnTheNodeTheyMust) {
  machine m;
  const auto file = run_gpu_suite("^gpu\\.(host|p2p)\\.latency$");
  int ran = 0;
  for (const auto& c : file.results) {
    if (c.benchmark == "gpu.p2p.latency" &&
        !peers(c.params.at("gpu").get<int>(), c.params.at("peer").get<int>())) {
      EXPECT_EQ(c.status, core::case_status::skipped) << c.params.dump();
      continue;
    }
    // The job's verify() threw unless every chase ended on node 1 of the chain.
    expect_ok(c, 1);
    ++ran;
  }
  EXPECT_EQ(ran, 4 + 4);
  expect_clean(m);
}

TEST(StandinGpuSuite, TheResultFileSaysItIsATestNotAMeasurement) {
  machine m;
  auto file = run_gpu_suite("^gpu\\.h2d$");
  mark_as_functional_test(file);
  const auto path = std::filesystem::temp_directory_path() /
                    ("gpubench-standin-" + std::to_string(::getpid()) + ".json");
  core::write_result_file(path, file, false);
  const auto back = core::read_result_file(path);
  std::filesystem::remove(path);
  ASSERT_FALSE(back.results.empty());
  for (const auto& c : back.results) {
    EXPECT_TRUE(c.points.empty()) << "a stand-in time would read as bandwidth";
    EXPECT_FALSE(c.peak.has_value());
    EXPECT_NE(c.context.at("standin").at("what").get<std::string>().find("functional test"),
              std::string::npos);
  }
  ASSERT_EQ(back.system.at("gpus").size(), 4u);
  for (const auto& g : back.system.at("gpus"))
    EXPECT_NE(g.at("name").get<std::string>().find("not a GPU measurement"), std::string::npos);
  // The topology probe saw the peer matrix the machine was given.
  ASSERT_EQ(back.system.at("gpu_pairs").size(), 12u);
  for (const auto& p : back.system.at("gpu_pairs"))
    EXPECT_EQ(p.at("can_access_peer").get<bool>(),
              peers(p.at("src").get<int>(), p.at("dst").get<int>()))
        << p.dump();
}

}  // namespace
}  // namespace gpubench::tests::standin

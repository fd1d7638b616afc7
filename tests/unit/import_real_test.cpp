// The importers on real output of real machines, as their users published it: the shared
// folder beside the checkout (<repo>/../shared/fixtures/real, whose INDEX.md says what a careful
// engineer concludes from each file). Each test asserts the parsed values and what the report
// concludes: its headline figure and its findings. Skipped, with the reason, without the folder.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/errors.hpp"
#include "tests/unit/import_real_fixture.hpp"

namespace gpubench::test_import {
namespace {

class ImportReal : public RealOutputs {
 protected:
  void SetUp() override {
    folder_ = real_folder();
    if (!folder_)
      GTEST_SKIP() << "no real tool outputs: " << GPUBENCH_SOURCE_ROOT
                   << "/../shared/fixtures/real is absent (a checkout without the shared folder)";
  }
};

const core::point_result& largest(const core::case_result& c) {
  return c.points.back();
}

TEST_F(ImportReal, NcclTests1TwoNodeH100AllreducePlateauNotTheAverage) {
  const auto r = load("nccl-tests-1.txt");  // the operation read from the table
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "allreduce");
  EXPECT_EQ(c.context.at("operation_from").get<std::string>().find("inferred from the table"), 0u);
  EXPECT_EQ(c.params.at("nodes"), 2);
  EXPECT_EQ(c.params.at("ranks"), 16);
  EXPECT_EQ(c.points.size(), 31u);
  EXPECT_EQ(largest(c).bytes, 8589934592u);
  EXPECT_DOUBLE_EQ(largest(c).stats.median, 338.82);
  EXPECT_DOUBLE_EQ(c.points.at(29).stats.median, 330.58);  // 4 GiB: the 330-340 plateau
  for (const auto& p : c.points)
    EXPECT_EQ(p.extra.at("wrong"), 0);
  EXPECT_EQ(r.run.file.system.at("gpus").at(0).at("name"), "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(r.headline.size(), 1u);
  EXPECT_DOUBLE_EQ(r.headline[0].figure.value, 338.82);
  EXPECT_TRUE(has_finding(r, "collective.log_average", "70.74 GB/s"));
}

TEST_F(ImportReal, NcclTests2TwoNodeA100DipThenHigherAtLargeSizes) {
  const auto r = load("nccl-tests-2.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "allreduce");
  EXPECT_EQ(c.params.at("nodes"), 2);
  const auto at = [&](std::uint64_t b) {
    for (const auto& p : c.points)
      if (p.bytes == b) return p.stats.median;
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(at(268435456), 165.42);
  EXPECT_DOUBLE_EQ(at(536870912), 156.41);  // the dip
  EXPECT_DOUBLE_EQ(at(1073741824), 219.12);
  EXPECT_DOUBLE_EQ(r.headline.at(0).figure.value, 237.94);
  EXPECT_TRUE(has_finding(r, "collective.log_average", "66.48 GB/s"));
  EXPECT_FALSE(has_finding(r, "collective.busbw_falls"));
}

TEST_F(ImportReal, NcclTests3OldFormatAlltoallWithValidationOff) {
  const auto r = load("nccl-tests-3.txt", "alltoall");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "alltoall");
  EXPECT_EQ(c.params.at("ranks"), 8);
  EXPECT_EQ(c.params.at("nodes"), 1);
  EXPECT_EQ(c.points.front().bytes, 32u);            // the five 0-byte rows move nothing
  EXPECT_FALSE(largest(c).extra.contains("wrong"));  // N/A: not checked
  EXPECT_DOUBLE_EQ(largest(c).stats.median, 224.31);
  EXPECT_DOUBLE_EQ(largest(r.run.file.results.at(1)).stats.median, 226.16);  // in-place
  EXPECT_NEAR(r.headline.at(0).figure.value, 224.31, 1e-9);  // out-of-place, not in-place
  EXPECT_TRUE(has_finding(r, "collective.log_average", "58.65 GB/s"));
}

TEST_F(ImportReal, NcclTests3AlltoallIsAmbiguousWithoutOp) {
  // Validation off: nothing tells all_gather from alltoall, so --op is asked for, by name.
  reports::import::import_options o{"nccl-tests-3.txt", ""};
  try {
    reports::import::import_text(real_output(*folder_ / "nccl-tests-3.txt"), o);
    FAIL() << "an ambiguous log was given an operation";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("all_gather and alltoall"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("--op"), std::string::npos);
  }
}

TEST_F(ImportReal, NcclTests4PartialSendrecvInferred) {
  // busbw = algbw, each rank the whole size, in place not checked: sendrecv.
  const auto r = load("nccl-tests-4.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "sendrecv");
  EXPECT_NE(c.context.at("operation_from").get<std::string>().find("out-of-place checked only"),
            std::string::npos);
  EXPECT_FALSE(c.params.contains("ranks"));  // busbw = algbw says nothing of the rank count
  EXPECT_DOUBLE_EQ(largest(c).stats.median, 195.10);
  EXPECT_FALSE(largest(r.run.file.results.at(1)).extra.contains("wrong"));  // in-place N/A
}

TEST_F(ImportReal, NcclTests5NewFramingSingleRowGb10Pair) {
  const auto r = load("nccl-tests-5.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "allgather");
  EXPECT_EQ(c.imported->version, "2.18.5");
  EXPECT_EQ(c.imported->test, "all_gather_perf");
  EXPECT_EQ(c.params.at("nodes"), 2);
  ASSERT_EQ(c.points.size(), 1u);
  EXPECT_DOUBLE_EQ(c.points[0].stats.median, 22.94);
  EXPECT_NEAR(c.points[0].stats.median * 8, 183.5, 0.1);  // ~184 Gb/s on the 200G cable
  EXPECT_EQ(r.run.file.system.at("software").at("nccl"), "2.28.9");
}

TEST_F(ImportReal, NcclTests6And7NvlinkAgainstP2pDisabled) {
  const auto with = load("nccl-tests-6.txt");  // both inferred: busbw = 1.5 x algbw
  const auto without = load("nccl-tests-7.txt");
  EXPECT_EQ(with.run.file.results[0].kind.operation, "allreduce");
  EXPECT_EQ(without.run.file.results[0].kind.operation, "allreduce");
  EXPECT_EQ(with.run.file.results[0].params.at("ranks"), 4);  // from busbw = 1.5 x algbw
  // The headline takes the out-of-place figure (370.70), not the in-place one (370.75).
  EXPECT_DOUBLE_EQ(with.headline.at(0).figure.value, 370.70);
  EXPECT_DOUBLE_EQ(without.headline.at(0).figure.value, 19.98);
  EXPECT_FALSE(has_finding(with, "collective.busbw_falls"));
  EXPECT_TRUE(has_finding(without, "collective.busbw_falls", "24.27 GB/s"));
  EXPECT_LT(without.headline[0].figure.value / with.headline[0].figure.value, 0.1);
}

TEST_F(ImportReal, Nvbandwidth1HealthyH100Pairs) {
  const auto r = load("nvbandwidth-1.txt");
  EXPECT_EQ(r.run.file.results.size(), 56u);  // 8 x 8 less the N/A diagonal
  double lo = 1e9, hi = 0;
  for (const auto& c : r.run.file.results) {
    lo = std::min(lo, c.points[0].stats.median);
    hi = std::max(hi, c.points[0].stats.median);
  }
  EXPECT_DOUBLE_EQ(lo, 370.26);
  EXPECT_DOUBLE_EQ(hi, 372.96);
  EXPECT_GT(lo, 335.0);  // the health check's threshold
  ASSERT_EQ(r.headline.size(), 1u);
  EXPECT_DOUBLE_EQ(r.headline[0].figure.value, 370.26);
  EXPECT_TRUE(r.found.empty());
}

TEST_F(ImportReal, Nvbandwidth2MultinodeNvlinkAcrossHosts) {
  const auto r = load("nvbandwidth-2.txt");
  EXPECT_EQ(r.run.file.results.size(), 56u);
  const auto& c = r.run.file.results[0];
  EXPECT_EQ(c.context.at("hosts").size(), 2u);
  EXPECT_EQ(r.run.file.system.at("gpus").size(), 4u);
  EXPECT_EQ(r.run.file.system.at("gpus")[0].at("pci_bus_id"), "00000008:01:00");
  for (const auto& x : r.run.file.results)
    EXPECT_GT(x.points[0].stats.median, 797.0);  // intra- and inter-tray alike
  EXPECT_EQ(c.context.at("src_host"), "nvbandwidth-test-worker-0");
  EXPECT_TRUE(has_finding(r, "gpu.nvlink_across_hosts", "one NVLink domain spans the hosts"));
  EXPECT_TRUE(has_finding(r, "gpu.nvlink_across_hosts", "32 pairs across hosts"));
}

TEST_F(ImportReal, Nvbandwidth3A10HostToDevice) {
  const auto r = load("nvbandwidth-3.txt");
  ASSERT_EQ(r.run.file.results.size(), 1u);
  EXPECT_DOUBLE_EQ(r.headline.at(0).figure.value, 25.17);
  EXPECT_NEAR(25.17 / 31.5, 0.8, 0.01);  // ~79 % of PCIe 4.0 x16, as the source says
  EXPECT_EQ(r.run.file.system.at("gpus")[0].at("name"), "NVIDIA A10");
}

TEST_F(ImportReal, Nvbandwidth4SmCopyOnHeadlineAgainstItsReference) {
  const auto r = load("nvbandwidth-4.txt");
  ASSERT_EQ(r.headline.size(), 1u);
  EXPECT_NE(r.headline[0].path.find("SM copy"), std::string::npos);
  EXPECT_DOUBLE_EQ(r.headline[0].figure.value, 25.13);
  EXPECT_EQ(r.run.file.system.at("gpus")[0].at("pci_bus_id"), "00000000:99:00");
}

TEST_F(ImportReal, Nvbandwidth5AllTestcasesH800) {
  const auto r = load("nvbandwidth-5.txt");
  std::size_t skipped = 0;
  double d2d_lo = 1e9, d2d_hi = 0;
  for (const auto& c : r.run.file.results) {
    if (c.status != core::case_status::ok) ++skipped;
    if (c.imported->test.starts_with("device_to_device_memcpy_") &&
        c.imported->test.ends_with("_ce")) {
      d2d_lo = std::min(d2d_lo, c.points[0].stats.median);
      d2d_hi = std::max(d2d_hi, c.points[0].stats.median);
    }
  }
  EXPECT_EQ(skipped, 0u);
  EXPECT_GT(d2d_lo, 171.0);  // 172-176 GB/s, about 46 % of H100's 370
  EXPECT_LT(d2d_hi, 177.0);
  // Page one: the copy engine's slowest pair (SM pairs stay off it) and H2D at Gen5 speed.
  int seen = 0;
  for (const auto& row : r.headline) {
    if (row.key.starts_with("gpu_gpu")) {
      EXPECT_DOUBLE_EQ(row.figure.value, 171.88);
      ++seen;
    }
    if (row.key == "host_gpu to_gpu bandwidth") {
      EXPECT_DOUBLE_EQ(row.figure.value, 55.28);
      ++seen;
    }
  }
  EXPECT_TRUE(has_finding(r, "gpu.host_outlier", "GPU 1's host copies are much faster"));
  EXPECT_EQ(seen, 2);
  EXPECT_TRUE(has_finding(r, "gpu.host_outlier", "to_host measured) 50.50 GB/s"));
  EXPECT_FALSE(has_finding(r, "gpu.host_outlier", "slower"));
}

TEST_F(ImportReal, Perftest1WriteBandwidthFourQps) {
  const auto r = load("perftest-1.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.params.at("device"), "mlx5_5");
  EXPECT_EQ(c.params.at("qps"), 4);
  EXPECT_EQ(c.context.at("link_layer"), "Ethernet");
  EXPECT_DOUBLE_EQ(c.points[0].stats.median * 8, 98.01);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("bw_peak").get<double>() * 8, 98.01);
  EXPECT_FALSE(c.peak);  // the log does not state the port speed
}

TEST_F(ImportReal, Perftest2And3TwinsAddUpToTheLink) {
  const auto a = load("perftest-2.txt");
  const auto b = load("perftest-3.txt");
  const auto& pa = a.run.file.results.at(0).points.at(0);
  const auto& pb = b.run.file.results.at(0).points.at(0);
  EXPECT_EQ(pa.samples.size(), 5u);  // --run_infinitely: one row per report
  EXPECT_EQ(pb.samples.size(), 6u);
  EXPECT_FALSE(pa.extra.contains("bw_peak"));  // 0.00: not measured
  EXPECT_NEAR((pa.stats.median + pb.stats.median) * 8, 189.85, 0.01);
  EXPECT_EQ(a.run.file.results[0].imported->command.find("ib_write_bw -d rocep1s0f0"), 0u);
}

TEST_F(ImportReal, Perftest4OneTwinOnly) {
  const auto r = load("perftest-4.txt");
  EXPECT_DOUBLE_EQ(r.run.file.results.at(0).points.at(0).stats.median * 8, 111.61);
  EXPECT_EQ(r.run.file.results[0].context.at("link_layer"), "IB");
}

TEST_F(ImportReal, Perftest5WriteLatency) {
  const auto r = load("perftest-5.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.metric, "latency");
  EXPECT_DOUBLE_EQ(c.points.at(0).stats.median, 1.47);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("p99_9").get<double>(), 1.93);
  EXPECT_DOUBLE_EQ(r.headline.at(0).figure.value, 1.47);
}

TEST_F(ImportReal, Iperf3OneStreamLimitedByThePath) {
  const auto r = load("iperf3-1.json");
  const auto& c = r.run.file.results.at(0);
  const auto& p = c.points.at(0);
  EXPECT_EQ(p.samples.size(), 10u);  // 13 intervals, the first 3 omitted
  EXPECT_NEAR(p.extra.at("total_gbytes_per_s").get<double>() * 8, 1.82, 0.01);
  EXPECT_NEAR(p.extra.at("received_gbytes_per_s").get<double>() * 8, 1.82, 0.01);
  EXPECT_EQ(p.extra.at("retransmits"), 752);
  EXPECT_DOUBLE_EQ(p.extra.at("mean_rtt_us").get<double>(), 2722);
  EXPECT_TRUE(has_finding(r, "net.tcp_retransmits", "752 retransmits"));
}

TEST_F(ImportReal, EveryFileImports) {
  for (const auto& entry : std::filesystem::directory_iterator(*folder_)) {
    const std::string name = entry.path().filename().string();
    if (name == "INDEX.md") continue;
    // Every log is read as it is; only nccl-tests-3 (validation off) cannot tell its operation.
    reports::import::import_options o{name, name == "nccl-tests-3.txt" ? "alltoall" : ""};
    EXPECT_NO_THROW(reports::import::import_text(real_output(entry.path()), o)) << name;
  }
}

}  // namespace
}  // namespace gpubench::test_import

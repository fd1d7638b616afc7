// The importers on the later real outputs (<repo>/../shared/fixtures/real-new, whose INDEX.md
// says what a careful engineer concludes from each): nvbandwidth's bidirectional matrices and a
// waived testcase, nccl-tests logs with NCCL's INFO lines and a mid-sweep collapse, a perftest
// session of nine runs and a message-rate run, iperf3 --bidir with -b. Skipped, with the reason,
// without the folder.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/unit/import_real_fixture.hpp"

namespace gpubench::test_import {
namespace {

class ImportRealNew : public RealOutputs {
 protected:
  void SetUp() override {
    folder_ = real_new_folder();
    if (!folder_)
      GTEST_SKIP() << "no later real tool outputs: " << GPUBENCH_SOURCE_ROOT
                   << "/../shared/fixtures/real-new is absent (a checkout without it)";
  }
};

double at(const core::case_result& c, std::uint64_t bytes) {
  for (const auto& p : c.points)
    if (p.bytes == bytes) return p.stats.median;
  return -1;
}

TEST_F(ImportRealNew, EveryFileImportsWithoutOp) {
  for (const auto& entry : std::filesystem::directory_iterator(*folder_)) {
    const std::string name = entry.path().filename().string();
    if (name == "INDEX.md") continue;
    reports::import::import_options o{name, ""};
    EXPECT_NO_THROW(reports::import::import_text(real_output(entry.path()), o)) << name;
  }
}

TEST_F(ImportRealNew, NcclTests8FlatAt15WithGdrOff) {
  const auto r = load("nccl-tests-8.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "allreduce");  // 2 ranks: factor 1, both placements checked
  EXPECT_NE(c.context.at("operation_from").get<std::string>().find("inferred"), std::string::npos);
  EXPECT_EQ(c.params.at("ranks"), 2);
  EXPECT_EQ(c.params.at("nodes"), 2);
  EXPECT_EQ(c.context.at("gdr"), false);  // "GDR 0": the whole explanation of the flat 15 GB/s
  EXPECT_EQ(c.context.at("network"), "IB");
  EXPECT_EQ(c.context.at("algorithm"), "RING");
  EXPECT_NE(c.context.at("net_device").get<std::string>().find("mlx5_5"), std::string::npos);
  EXPECT_EQ(r.run.file.system.at("software").at("nccl"), "2.26.2");
  ASSERT_EQ(c.points.size(), 13u);
  for (const auto& p : c.points) {
    EXPECT_GT(p.stats.median, 14.9);
    EXPECT_LT(p.stats.median, 15.2);
    EXPECT_EQ(p.extra.at("wrong"), 0);
  }
  EXPECT_TRUE(has_finding(r, "collective.no_gdr", "GDR 0")) << "the page says why it is flat";
  EXPECT_EQ(c.status, core::case_status::ok);
}

TEST_F(ImportRealNew, NcclTests9AlltoallCollapseMidSweep) {
  const auto r = load("nccl-tests-9.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.kind.operation, "alltoall");
  EXPECT_EQ(c.context.at("operation_from"), "named by the log");
  EXPECT_EQ(c.params.at("ranks"), 16);
  EXPECT_EQ(c.params.at("nodes"), 2);
  EXPECT_DOUBLE_EQ(at(c, 8388608), 29.86);
  EXPECT_DOUBLE_EQ(at(c, 16777216), 1.48);  // the cliff
  EXPECT_DOUBLE_EQ(at(c, 134217728), 1.44);
  EXPECT_DOUBLE_EQ(at(c, 8589934592), 35.90);
  EXPECT_EQ(c.context.at("nccl_version"), "2.30.3");
  EXPECT_FALSE(r.run.file.results.at(1).points.back().extra.contains("wrong"));  // in place N/A
}

TEST_F(ImportRealNew, Nvbandwidth6SevenB300sBidirectionalMatrices) {
  const auto r = load("nvbandwidth-6.txt");
  const auto& all = r.run.file.results;
  EXPECT_EQ(all.size(), 364u);  // 4 x 7 host copies, 2 x 42 pairs, 2 x 3 x 42 bidirectional
  double read_lo = 1e9, read_hi = 0, total_lo = 1e9, total_hi = 0;
  std::size_t totals = 0, ones = 0;
  for (const auto& c : all) {
    const double v = c.points.at(0).stats.median;
    if (c.imported->test == "device_to_device_memcpy_read_ce") {
      read_lo = std::min(read_lo, v);
      read_hi = std::max(read_hi, v);
    }
    if (c.params.value("measured", "") == "total") {
      ++totals;
      total_lo = std::min(total_lo, v);
      total_hi = std::max(total_hi, v);
    }
    if (c.params.value("measured", "") == "read1" || c.params.value("measured", "") == "write1")
      ++ones;
    if (c.imported->test == "host_to_device_memcpy_ce") {
      EXPECT_NEAR(v, 55.6, 0.05);
    }
  }
  EXPECT_GE(read_lo, 764.0);
  EXPECT_LE(read_hi, 766.5);
  EXPECT_EQ(totals, 84u);
  EXPECT_EQ(ones, 84u);
  EXPECT_GE(total_lo, 1517.8);
  EXPECT_LE(total_hi, 1540.5);
  EXPECT_EQ(all.front().imported->version, "v0.10.0");
  // No device lines in v0.10: the shell prompt names the host, which labels the run.
  EXPECT_EQ(r.run.file.system.at("host"), "dell");
  EXPECT_EQ(r.run.label, "dell");
}

TEST_F(ImportRealNew, Nvbandwidth7WaivedNeverZero) {
  const auto r = load("nvbandwidth-7.txt");
  ASSERT_EQ(r.run.file.results.size(), 1u);
  const auto& c = r.run.file.results[0];
  EXPECT_EQ(c.status, core::case_status::skipped);
  EXPECT_NE(c.reason.find("Waived"), std::string::npos);
  EXPECT_TRUE(c.points.empty());
  EXPECT_EQ(r.run.file.system.at("gpus").size(), 2u);
  EXPECT_TRUE(r.headline.empty());  // nothing measured: nothing on the headline
}

TEST_F(ImportRealNew, Perftest6NineRunsOneCaseEach) {
  const auto r = load("perftest-6.txt");
  const auto& all = r.run.file.results;
  ASSERT_EQ(all.size(), 9u);
  const auto find = [&](const std::string& id, int run = 1) -> const core::case_result& {
    for (const auto& c : all)
      if (c.benchmark == id && c.params.value("run", 1) == run) return c;
    throw std::runtime_error("no " + id);
  };
  // write_bw's plateau: ~3660 MB/s (2^20 bytes) = 3.84 GB/s, ~96 % of QDR's 32 Gb/s of data.
  EXPECT_NEAR(at(find("perftest.ib_write_bw"), 65536) * 8, 30.5, 0.1);
  EXPECT_DOUBLE_EQ(at(find("perftest.ib_write_lat"), 2), 0.98);
  EXPECT_DOUBLE_EQ(at(find("perftest.ib_read_lat"), 2), 1.99);
  EXPECT_DOUBLE_EQ(at(find("perftest.ib_send_lat"), 2), 1.07);
  EXPECT_DOUBLE_EQ(at(find("perftest.ib_atomic_lat"), 8), 2.34);
  EXPECT_EQ(find("perftest.ib_read_bw", 1).context.at("peer"), "teaker-10");
  EXPECT_EQ(find("perftest.ib_read_bw", 2).context.at("peer"), "192.168.1.60");
  const auto& send_lat = find("perftest.ib_send_lat");
  EXPECT_DOUBLE_EQ(send_lat.points.back().extra.at("p99_9").get<double>(), 3761.26);
  EXPECT_DOUBLE_EQ(send_lat.points.back().stats.median, 2247.02);
  EXPECT_EQ(r.run.label, "4bfed8618b1d");  // the first prompt's host, not the time of import
  EXPECT_EQ(find("perftest.ib_send_bw").imported->command,
            "ib_send_bw -a --iter 20000 192.168.1.60");
}

TEST_F(ImportRealNew, Perftest7IsAMessageRate) {
  const auto r = load("perftest-7.txt");
  const auto& c = r.run.file.results.at(0);
  EXPECT_EQ(c.metric, "message_rate");
  EXPECT_EQ(c.unit, "Mpps");
  EXPECT_EQ(c.params.at("post_list"), 128);
  EXPECT_DOUBLE_EQ(c.points.at(0).stats.median, 7.498617);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("bw_average_gbytes_per_s").get<double>() * 8, 0.48);
  EXPECT_FALSE(c.points[0].extra.contains("bw_peak"));  // 0.00: not measured
  ASSERT_EQ(r.headline.size(), 1u);
  EXPECT_EQ(r.headline[0].path.rfind("RDMA message rate", 0), 0u) << r.headline[0].path;
}

TEST_F(ImportRealNew, Iperf3BidirBothDirectionsRateCapped) {
  const auto r = load("iperf3-2.json");
  const auto& all = r.run.file.results;
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].params.at("direction"), "send");
  EXPECT_EQ(all[1].params.at("direction"), "receive");
  for (const auto& c : all) {
    EXPECT_EQ(c.params.at("bidir"), true);
    EXPECT_EQ(c.params.at("streams"), 2);
    EXPECT_NEAR(c.points.at(0).stats.median * 8e3, 8.38, 0.01);  // Mb/s, each direction
    EXPECT_EQ(c.points[0].extra.at("retransmits"), 0);
    EXPECT_EQ(c.context.at("rate_capped"), true);  // -b 4M per stream: not a capacity figure
  }
  EXPECT_EQ(r.run.file.system.at("host"), "b43315123257");
  // Page one never calls the sender's set rate the path's bandwidth.
  ASSERT_FALSE(r.headline.empty());
  EXPECT_NE(r.headline[0].path.find("set rate (not capacity)"), std::string::npos)
      << r.headline[0].path;
}

}  // namespace
}  // namespace gpubench::test_import

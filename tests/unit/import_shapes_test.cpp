// The importers on the shapes of output issue 36 brought (tests/golden/import, written from the
// tools' formats): nvbandwidth's bidirectional matrices, waived testcases, pastes and several
// runs in one file; nccl-tests' operation read from its table, NCCL's INFO lines, -I columns
// and a failed data check; perftest sessions and message-rate runs; iperf3's UDP and rate cap.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "tests/unit/import_fixtures.hpp"

namespace gpubench::test_import {
namespace {

const core::case_result* find_case(const core::result_file& f, const std::string& benchmark,
                                   const nlohmann::json& params) {
  for (const auto& c : f.results) {
    if (c.benchmark != benchmark) continue;
    bool all = true;
    for (const auto& [k, v] : params.items())
      all = all && c.params.contains(k) && c.params.at(k) == v;
    if (all) return &c;
  }
  return nullptr;
}

TEST(ImportShapes, NvbandwidthBidirectionalMatricesAreCasesOfTheirOwn) {
  const auto f = import_own("nvbandwidth-bidir-v010.txt");
  ASSERT_EQ(f.results.size(), 8u);  // 3 matrices x 2 pairs, then 2 host copies
  const std::string id = "nvbandwidth.device_to_device_bidirectional_memcpy_read_ce";
  const auto* one = find_case(f, id, {{"measured", "read1"}, {"src", 1}, {"dst", 0}});
  const auto* two = find_case(f, id, {{"measured", "read2"}, {"src", 1}, {"dst", 0}});
  const auto* total = find_case(f, id, {{"measured", "total"}, {"src", 1}, {"dst", 0}});
  ASSERT_TRUE(one && two && total);
  EXPECT_DOUBLE_EQ(one->points[0].stats.median, 101.00);
  EXPECT_DOUBLE_EQ(two->points[0].stats.median, 98.00);
  EXPECT_DOUBLE_EQ(total->points[0].stats.median, 199.00);
  EXPECT_EQ(total->params.at("direction"), "bidir");
  EXPECT_DOUBLE_EQ(total->context.at("sum_reported").get<double>(), 399.00);
  EXPECT_DOUBLE_EQ(total->context.at("cv_reported").get<double>(), 0.01);
  EXPECT_FALSE(one->context.contains("cv_reported"));
  EXPECT_EQ(f.results[6].kind.direction, "to_gpu");  // the testcase after the three matrices
  EXPECT_EQ(f.results[6].imported->version, "v0.10.0");
}

TEST(ImportShapes, NvbandwidthWaivingIsASkippedCase) {
  const auto f = import_own("nvbandwidth-waived-v02.txt");
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].status, core::case_status::skipped);
  EXPECT_NE(f.results[0].reason.find("Waived"), std::string::npos);
  EXPECT_TRUE(f.results[0].points.empty());  // never 0 GB/s
  EXPECT_EQ(f.results[0].imported->command, "./nvbandwidth -t device_to_device_memcpy_read_ce");
  EXPECT_EQ(f.system.at("gpus").size(), 2u);
}

TEST(ImportShapes, NvbandwidthPasteAndASecondRunAreNumbered) {
  const auto f = import_own("nvbandwidth-paste-two-runs.txt");
  ASSERT_EQ(f.results.size(), 2u);
  EXPECT_EQ(f.results[0].benchmark, "nvbandwidth.host_to_device_memcpy_ce");
  EXPECT_EQ(f.results[0].params.at("run"), 1);
  EXPECT_EQ(f.results[1].params.at("run"), 2);
  EXPECT_DOUBLE_EQ(f.results[0].points[0].stats.median, 24.90);
  EXPECT_DOUBLE_EQ(f.results[1].points[0].stats.median, 25.10);
}

TEST(ImportShapes, NvbandwidthJsonStackedMatricesAreSplitBack) {
  const auto f = import_own("nvbandwidth-bidir.json");
  ASSERT_EQ(f.results.size(), 7u);  // 3 matrices x 2 pairs, 1 waived
  const std::string id = "nvbandwidth.device_to_device_bidirectional_memcpy_write_ce";
  const auto* w1 = find_case(f, id, {{"measured", "write1"}, {"src", 0}, {"dst", 1}});
  const auto* w2 = find_case(f, id, {{"measured", "write2"}, {"src", 0}, {"dst", 1}});
  const auto* total = find_case(f, id, {{"measured", "total"}, {"src", 1}, {"dst", 0}});
  ASSERT_TRUE(w1 && w2 && total);
  EXPECT_DOUBLE_EQ(w1->points[0].stats.median, 40.5);
  EXPECT_DOUBLE_EQ(w2->points[0].stats.median, 39.5);
  EXPECT_DOUBLE_EQ(total->points[0].stats.median, 79);
  EXPECT_FALSE(w1->context.contains("sum_reported"));  // the sum written is the total's
  EXPECT_EQ(f.results.back().status, core::case_status::skipped);
  EXPECT_EQ(f.system.at("host"), "node-a");
  EXPECT_EQ(f.system.at("gpus")[1].at("pci_bus_id"), "00000000:1b:00");
  EXPECT_EQ(f.system.at("gpus")[1].at("name"), "Made-up GPU");
}

TEST(ImportShapes, NcclOperationInferredWhereTheTableFitsOne) {
  const auto f = import_own("nccl-sendrecv-headerless.txt");
  EXPECT_EQ(f.results[0].kind.operation, "sendrecv");
  const std::string from = f.results[0].context.at("operation_from");
  EXPECT_NE(from.find("inferred from the table"), std::string::npos) << from;
  EXPECT_NE(from.find("out-of-place checked only"), std::string::npos) << from;
  // An operation given beats the inference, and says so.
  const auto given = import_own("nccl-sendrecv-headerless.txt", "broadcast");
  EXPECT_EQ(given.results[0].kind.operation, "broadcast");
  EXPECT_EQ(given.results[0].context.at("operation_from"), "given with --op");
}

TEST(ImportShapes, NcclAmbiguousTableAsksForOp) {
  try {
    import_own("nccl-allgather-ambiguous.txt");
    FAIL() << "an ambiguous table was given an operation";
  } catch (const core::input_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("all_gather and alltoall"), std::string::npos) << m;
    EXPECT_NE(m.find("--op"), std::string::npos) << m;
  }
  EXPECT_EQ(import_own("nccl-allgather-ambiguous.txt", "all_gather").results[0].kind.operation,
            "allgather");
}

TEST(ImportShapes, NcclInfoLinesPerIterationColumnsAndAFailedCheck) {
  const auto f = import_own("nccl-info-wrong-periter.txt");
  ASSERT_EQ(f.results.size(), 2u);
  const auto& out = f.results[0];
  EXPECT_EQ(out.kind.operation, "allreduce");  // from the concluded line
  EXPECT_EQ(out.context.at("operation_from"), "named by the log");
  EXPECT_EQ(out.context.at("network"), "IB");
  EXPECT_EQ(out.context.at("gdr"), true);
  EXPECT_EQ(out.context.at("algorithm"), "Tree");
  EXPECT_NE(out.context.at("net_device").get<std::string>().find("mlx5_1:1/IB"), std::string::npos);
  ASSERT_EQ(out.points.size(), 2u);
  EXPECT_DOUBLE_EQ(out.points[0].extra.at("iter_p99_us").get<double>(), 59.00);
  EXPECT_DOUBLE_EQ(out.points[1].extra.at("iter_cv_pct").get<double>(), 2.00);
  EXPECT_DOUBLE_EQ(f.results[1].points[1].extra.at("iter_max_us").get<double>(), 98.00);
  // 4 wrong elements out of place at 2 MiB: that case failed, the point says so.
  EXPECT_EQ(out.status, core::case_status::failed);
  EXPECT_NE(out.reason.find("#wrong"), std::string::npos);
  EXPECT_EQ(out.points[1].extra.at("failed"), true);
  EXPECT_FALSE(out.points[0].extra.contains("failed"));
  EXPECT_EQ(f.results[1].status, core::case_status::ok);  // in place: all 0
  EXPECT_EQ(f.system.at("software").at("nccl"), "2.28.9");
}

TEST(ImportShapes, PerftestSessionSplitsIntoRunsAndMessageRate) {
  const auto f = import_own("perftest-session.txt");
  ASSERT_EQ(f.results.size(), 3u);
  const auto& bw = f.results[0];
  EXPECT_EQ(bw.metric, "bandwidth");
  EXPECT_EQ(bw.imported->command, "ib_write_bw -d dev0 --report_gbits 198.18.0.2");
  EXPECT_EQ(bw.context.at("peer"), "198.18.0.2");  // the terminal's wrap undone
  EXPECT_EQ(f.system.at("host"), "host-a");        // the prompt's host
  const auto& rate = f.results[1];
  EXPECT_EQ(rate.metric, "message_rate");
  EXPECT_EQ(rate.unit, "Mpps");
  EXPECT_EQ(rate.params.at("post_list"), 64);
  EXPECT_DOUBLE_EQ(rate.points[0].stats.median, 9.375);
  EXPECT_DOUBLE_EQ(rate.points[0].extra.at("bw_average_gbytes_per_s").get<double>(), 0.60 / 8);
  // The same test again in one session: numbered, so the two cases stay apart.
  EXPECT_FALSE(bw.params.contains("run"));
  EXPECT_EQ(f.results[2].params.at("run"), 2);
  EXPECT_DOUBLE_EQ(f.results[2].points[0].stats.median, 96.50 / 8);
}

TEST(ImportShapes, Iperf3UdpLossJitterAndTheRateCap) {
  const auto f = import_own("iperf3-udp-capped.json");
  ASSERT_EQ(f.results.size(), 1u);
  const auto& c = f.results[0];
  EXPECT_EQ(c.benchmark, "iperf3.udp");
  const auto& p = c.points.at(0);
  EXPECT_DOUBLE_EQ(p.extra.at("jitter_ms").get<double>(), 0.021);
  EXPECT_DOUBLE_EQ(p.extra.at("lost_packets").get<double>(), 12);
  EXPECT_DOUBLE_EQ(p.extra.at("lost_percent").get<double>(), 0.0701);
  EXPECT_DOUBLE_EQ(c.context.at("target_bits_per_second").get<double>(), 1e8);
  EXPECT_EQ(c.context.at("rate_capped"), true);  // 99.9 of 100 Mbit/s: the cap, not the path
}

TEST(ImportShapes, Iperf3ErrorOnlyFileIsAFailedCase) {
  const auto f = import_own("iperf3-error.json");
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].status, core::case_status::failed);
  EXPECT_NE(f.results[0].reason.find("Connection refused"), std::string::npos);
  EXPECT_TRUE(f.results[0].points.empty());
  EXPECT_EQ(f.system.at("host"), "client-b");
}

TEST(ImportShapes, NcclTestsJsonWithPerIterationRows) {
  EXPECT_EQ(reports::import::detect_format(read_text(own("nccl-tests-periter.json"))),
            "nccl-tests-json");
  const auto f = import_own("nccl-tests-periter.json");
  ASSERT_EQ(f.results.size(), 2u);
  const auto& c = f.results[0];
  EXPECT_EQ(c.kind.operation, "allgather");  // from args[0], all_gather_perf
  EXPECT_EQ(c.context.at("operation_from"), "named by the log");
  EXPECT_EQ(c.params.at("ranks"), 2);
  EXPECT_EQ(c.params.at("nodes"), 2);
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_DOUBLE_EQ(c.points[0].stats.median, 13.1072);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("iter_p99_us").get<double>(), 42);
  EXPECT_EQ(c.points[0].extra.at("iter_times_us").size(), 3u);
  EXPECT_EQ(c.points[0].extra.at("iter_process_max_times_us").size(), 2u);  // one row a process
  EXPECT_EQ(c.points[0].extra.at("wrong"), 0);
  EXPECT_FALSE(f.results[1].points[1].extra.contains("wrong"));  // "nan": not a count
  EXPECT_DOUBLE_EQ(c.context.at("avg_busbw_reported").get<double>(), 13.418195);
  EXPECT_EQ(f.system.at("software").at("nccl"), "2.28.9");
  EXPECT_NE(c.imported->command.find("-I 1"), std::string::npos);
}

TEST(ImportShapes, PerftestJsonRepairedOldForm) {
  EXPECT_EQ(reports::import::detect_format(read_text(own("perftest-old.json"))), "perftest-json");
  const auto f = import_own("perftest-old.json");
  ASSERT_EQ(f.results.size(), 1u);
  const auto& c = f.results[0];
  EXPECT_EQ(c.benchmark, "perftest.ib_write_bw");
  EXPECT_EQ(c.params.at("device"), "mlx5_0");
  EXPECT_EQ(c.params.at("qps"), 2);
  EXPECT_EQ(c.context.at("link_layer"), "Ethernet");
  // MB/sec (2^20 bytes), as MsgRate x MsgSize says: 0.179204 Mpps x 64 KiB = 11.74 GB/s.
  EXPECT_DOUBLE_EQ(c.points[0].stats.median, 11200.25 * 1048576 / 1e9);
}

TEST(ImportShapes, PerftestJsonSeveralReportsAndTheQosKey) {
  const auto f = import_own("perftest-lat-two-reports.json");
  ASSERT_EQ(f.results.size(), 2u);
  EXPECT_EQ(f.results[0].metric, "latency");
  EXPECT_DOUBLE_EQ(f.results[0].points[0].stats.median, 1.05);
  EXPECT_DOUBLE_EQ(f.results[0].points[0].extra.at("p99_9").get<double>(), 2.90);
  EXPECT_EQ(f.results[1].metric, "message_rate");  // post list 32: Mpps, in Gb/sec as printed
  EXPECT_DOUBLE_EQ(f.results[1].points[0].stats.median, 9.2);
  EXPECT_EQ(f.results[1].params.at("post_list"), 32);
}

TEST(ImportShapes, PerftestJsonBrokenBeyondRepairNamesTheField) {
  reports::import::import_options o{"p.json", ""};
  try {
    reports::import::import_text(
        "{\n\"test_info\": {\"test\": \"Send_BW_Test\"},\n\"results\": {}\n}\n", o);
    FAIL() << "a report without results was accepted";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("p.json: expected results.MsgSize"), std::string::npos)
        << e.what();
  }
}

// Found by mutating the fixtures: a byte that is not UTF-8 in a name the log carries (here the
// device) made the result file unwritable ("invalid UTF-8 byte"); it is now a '?'.
TEST(ImportShapes, BytesThatAreNotUtf8BecomeQuestionMarks) {
  std::string text = read_text(own("perftest-session.txt"));
  text.replace(text.find(": dev0"), 6, ": de\x88v");
  reports::import::import_options o{"bytes.txt", ""};
  const auto f = reports::import::import_text(text, o);
  EXPECT_EQ(f.results.at(0).params.at("device"), "de?v");
  EXPECT_NO_THROW((void)core::to_json(f).dump());
  // A two-byte character kept; a surrogate (3 bytes) and a stray byte replaced, byte by byte.
  EXPECT_EQ(reports::import::valid_utf8("a\xc3\xa9"
                                        "b\xed\xa0\x80"
                                        "c\xff"),
            "a\xc3\xa9"
            "b???c?");
}

TEST(ImportShapes, NcclTimestampColumnIsNoFigure) {
  const auto f = import_own("nccl-timestamps.txt");  // -S: each row ends with its time
  ASSERT_EQ(f.results.size(), 2u);
  const auto& c = f.results[0];
  EXPECT_EQ(c.kind.operation, "broadcast");
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_DOUBLE_EQ(c.points[1].stats.median, 41.94);
  EXPECT_EQ(c.points[1].extra.at("timestamp"), "2026-07-01 10:00:01");
  EXPECT_EQ(c.points[1].extra.at("wrong"), 0);
}

}  // namespace
}  // namespace gpubench::test_import

// The importers on the project's own fixtures (tests/golden/import), written from the tools'
// formats: old and new headers, interleaved NCCL log lines, N/A cells, truncated tables.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "reports/compare/comparison.hpp"
#include "reports/import/json_text.hpp"
#include "reports/model/report_options.hpp"
#include "reports/page_one/projection/projection.hpp"
#include "tests/unit/import_fixtures.hpp"

namespace gpubench::test_import {
namespace {

using reports::import::detect_format;

std::string error_of(const std::string& name, const std::string& op = {}) {
  try {
    import_own(name, op);
  } catch (const core::input_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ImportFormats, DetectsEachFormat) {
  EXPECT_EQ(detect_format(read_text(own("nccl-allgather-interleaved.txt"))), "nccl-tests");
  EXPECT_EQ(detect_format(read_text(own("nccl-table-only.txt"))), "nccl-tests");
  EXPECT_EQ(detect_format(read_text(own("nvbandwidth-v08.txt"))), "nvbandwidth");
  EXPECT_EQ(detect_format(read_text(own("nvbandwidth.json"))), "nvbandwidth-json");
  EXPECT_EQ(detect_format(read_text(own("perftest-read-lat.txt"))), "perftest");
  EXPECT_EQ(detect_format(read_text(own("iperf3-reverse.json"))), "iperf3");
  EXPECT_EQ(detect_format("hello\nworld\n"), "");
  EXPECT_EQ(detect_format(R"({"schema": "gpubench.result/1.3", "results": []})"), "gpubench");
}

TEST(ImportNcclTests, NewHeaderTwoNodesInterleavedInfoLines) {
  const auto f = import_own("nccl-allgather-interleaved.txt");
  ASSERT_EQ(f.results.size(), 2u);  // out-of-place and in-place
  const auto& c = f.results[0];
  EXPECT_EQ(c.benchmark, "nccl_tests.all_gather_perf");
  EXPECT_EQ(c.kind.path, "collective");
  EXPECT_EQ(c.kind.operation, "allgather");
  EXPECT_EQ(c.params.at("nodes"), 2);
  EXPECT_EQ(c.params.at("ranks"), 4);
  EXPECT_EQ(c.params.at("in_place"), false);
  EXPECT_EQ(f.results[1].params.at("in_place"), true);
  ASSERT_TRUE(c.imported);
  EXPECT_EQ(c.imported->tool, "nccl-tests");
  EXPECT_EQ(c.imported->version, "2.17.1");
  ASSERT_EQ(c.points.size(), 3u);  // the NCCL INFO lines between rows are not rows
  EXPECT_EQ(c.points[2].bytes, 4194304u);
  EXPECT_DOUBLE_EQ(c.points[2].stats.median, 2.42);
  EXPECT_EQ(c.points[2].samples.size(), 1u);  // one printed value, one sample
  EXPECT_EQ(c.points[2].extra.at("wrong"), 2);
  EXPECT_EQ(c.status, core::case_status::failed);  // the data check found wrong elements
  EXPECT_DOUBLE_EQ(c.points[2].extra.at("algbw").get<double>(), 3.23);
  EXPECT_DOUBLE_EQ(c.context.at("avg_busbw_reported").get<double>(), 2.235);
  EXPECT_EQ(f.system.at("host"), "node-one");
  EXPECT_EQ(f.system.at("gpus").size(), 2u);
  EXPECT_EQ(f.system.at("gpus")[1].at("pci_bus_id"), "0000:3c:00");
  EXPECT_EQ(f.system.at("software").at("nccl"), "2.27.3");
}

TEST(ImportNcclTests, OldHeaderBlankRedopAndNotApplicableErrors) {
  const auto f = import_own("nccl-old-alltoall.txt", "alltoall");
  ASSERT_EQ(f.results.size(), 2u);
  const auto& c = f.results[0];
  EXPECT_EQ(c.kind.operation, "alltoall");
  EXPECT_EQ(c.params.at("ranks"), 4);
  EXPECT_EQ(c.params.at("nodes"), 1);
  EXPECT_EQ(c.params.at("dtype"), "float");
  ASSERT_EQ(c.points.size(), 2u);  // the 0-byte row moves nothing and is left out
  EXPECT_DOUBLE_EQ(c.points[1].stats.median, 17.48);
  EXPECT_FALSE(c.points[1].extra.contains("wrong"));  // N/A: validation was off
}

TEST(ImportNcclTests, OperationMustBeNamedSomewhere) {
  EXPECT_NE(error_of("nccl-old-alltoall.txt").find("--op"), std::string::npos);
  const auto f = import_own("nccl-table-only.txt", "all_reduce");
  // No device lines: the rank count follows from busbw = algbw x 2(n-1)/n.
  EXPECT_EQ(f.results[0].params.at("ranks"), 8);
  EXPECT_FALSE(f.results[0].params.contains("nodes"));
  EXPECT_EQ(f.results[0].kind.operation, "allreduce");
}

TEST(ImportNcclTests, TruncatedRowNamesTheLine) {
  const std::string e = error_of("nccl-truncated.txt", "all_reduce");
  EXPECT_NE(e.find("nccl-truncated.txt:11: expected a table row"), std::string::npos) << e;
}

TEST(ImportNcclTests, MissingFooterAfterAHeaderIsAnEndTooEarly) {
  const std::string e = error_of("nccl-no-footer.txt", "all_reduce");
  EXPECT_NE(e.find("nccl-no-footer.txt:11: expected the '# Avg bus bandwidth'"), std::string::npos)
      << e;
}

TEST(ImportNvbandwidth, TextV08WithBusIdsAndNotApplicableCells) {
  const auto f = import_own("nvbandwidth-v08.txt");
  ASSERT_EQ(f.results.size(), 4u);  // 2 host copies, 1 GPU pair, 1 latency testcase skipped
  const auto& h2d1 = f.results[1];
  EXPECT_EQ(h2d1.benchmark, "nvbandwidth.host_to_device_memcpy_ce");
  EXPECT_EQ(h2d1.kind.path, "host_gpu");
  EXPECT_EQ(h2d1.kind.direction, "to_gpu");
  EXPECT_EQ(h2d1.params.at("gpu"), 1);
  EXPECT_EQ(h2d1.params.at("engine"), "ce");
  EXPECT_DOUBLE_EQ(h2d1.points[0].stats.median, 13.05);
  EXPECT_EQ(h2d1.imported->version, "v0.8");
  const auto& pair = f.results[2];
  EXPECT_EQ(pair.kind.path, "gpu_gpu");
  // "GPU(row) <- GPU(column)": row 0, column 1 is a copy from GPU 1 to GPU 0.
  EXPECT_EQ(pair.params.at("src"), 1);
  EXPECT_EQ(pair.params.at("dst"), 0);
  EXPECT_EQ(pair.params.at("access"), "write");
  EXPECT_DOUBLE_EQ(pair.points[0].stats.median, 21.5);
  EXPECT_EQ(f.results[3].status, core::case_status::skipped);
  EXPECT_EQ(f.system.at("gpus")[1].at("pci_bus_id"), "00000000:3c:00");
  EXPECT_EQ(f.system.at("software").at("driver"), "570.86.15");
}

TEST(ImportNvbandwidth, TruncatedMatrixNamesTheLine) {
  const std::string e = error_of("nvbandwidth-truncated.txt");
  EXPECT_NE(e.find("nvbandwidth-truncated.txt:11: expected matrix row 1"), std::string::npos) << e;
}

TEST(ImportNvbandwidth, JsonCellsAsStringsAndWaivedTestcases) {
  const auto f = import_own("nvbandwidth.json");
  ASSERT_EQ(f.results.size(), 3u);
  EXPECT_EQ(f.results[0].kind.direction, "to_host");
  EXPECT_DOUBLE_EQ(f.results[1].points[0].stats.median, 24.75);
  EXPECT_EQ(f.results[2].status, core::case_status::skipped);
  EXPECT_NE(f.results[2].reason.find("Waived"), std::string::npos);
  EXPECT_EQ(f.results[0].imported->version, "v0.5");
}

TEST(ImportNvbandwidth, TruncatedJsonNamesTheLine) {
  std::string text = read_text(own("nvbandwidth.json"));
  text.resize(text.find("\"sum\""));
  reports::import::import_options o{"cut.json", ""};
  try {
    reports::import::import_text(text, o);
    FAIL() << "a cut JSON document was accepted";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.json:17: expected a complete JSON document"),
              std::string::npos)
        << e.what();
  }
}

TEST(ImportPerftest, SendBandwidthInMegabytes) {
  const auto f = import_own("perftest-send-bw-mb.txt");
  ASSERT_EQ(f.results.size(), 1u);
  const auto& c = f.results[0];
  EXPECT_EQ(c.benchmark, "perftest.ib_send_bw");
  EXPECT_EQ(c.kind.transport, "rdma");
  EXPECT_EQ(c.params.at("op"), "send");
  EXPECT_EQ(c.params.at("device"), "mlx5_1");
  EXPECT_EQ(c.context.at("link_layer"), "IB");
  ASSERT_EQ(c.points.size(), 2u);
  // MB/sec is 2^20 bytes per second.
  EXPECT_NEAR(c.points[1].stats.median, 11500 * 1048576.0 / 1e9, 1e-9);
  EXPECT_NEAR(c.points[1].extra.at("bw_peak").get<double>(), 11800 * 1048576.0 / 1e9, 1e-9);
}

TEST(ImportPerftest, ReadLatencyKeepsTypicalAsTheValue) {
  const auto f = import_own("perftest-read-lat.txt");
  const auto& c = f.results[0];
  EXPECT_EQ(c.metric, "latency");
  EXPECT_EQ(c.unit, "us");
  EXPECT_EQ(c.params.at("op"), "read");
  EXPECT_DOUBLE_EQ(c.points[0].stats.median, 2.25);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("p99_9").get<double>(), 5.8);
  EXPECT_EQ(c.context.at("gid_index"), "3");
}

TEST(ImportPerftest, CutRowNamesTheLine) {
  std::string text = read_text(own("perftest-read-lat.txt"));
  text.resize(text.find(" 8       1000") + 20);
  reports::import::import_options o{"lat.txt", ""};
  try {
    reports::import::import_text(text, o);
    FAIL() << "a cut row was accepted";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("lat.txt:16: expected a result row of 9 columns"),
              std::string::npos)
        << e.what();
  }
}

TEST(ImportIperf3, ReverseRunIntervalsAreTheSamples) {
  const auto f = import_own("iperf3-reverse.json");
  const auto& c = f.results[0];
  EXPECT_EQ(c.benchmark, "iperf3.tcp");
  EXPECT_EQ(c.kind.transport, "tcp");
  EXPECT_EQ(c.params.at("direction"), "receive");
  EXPECT_EQ(c.params.at("streams"), 2);
  EXPECT_EQ(c.params.at("peer"), "198.18.0.2:5201");
  ASSERT_EQ(c.points[0].samples.size(), 3u);  // the omitted first interval is left out
  EXPECT_DOUBLE_EQ(c.points[0].stats.median, 9.3e9 / 8e9);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("total_gbytes_per_s").get<double>(), 9.29e9 / 8e9);
  EXPECT_DOUBLE_EQ(c.points[0].extra.at("cpu_percent_remote").get<double>(), 30.25);
  EXPECT_EQ(f.system.at("host"), "client-a");
  EXPECT_EQ(c.imported->version, "3.16");
}

TEST(ImportIperf3, ItsOwnErrorIsTheMessage) {
  const auto f = import_own("iperf3-error.json");  // a failed case, not a refused file
  EXPECT_NE(f.results.at(0).reason.find("Connection refused"), std::string::npos);
}

TEST(ImportFormats, UnknownTextSaysWhatWasExpected) {
  reports::import::import_options o{"notes.txt", ""};
  try {
    reports::import::import_text("just some words\n", o);
    FAIL();
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt: expected a gpubench result file or the "
                                         "output of nccl-tests"),
              std::string::npos)
        << e.what();
  }
}

TEST(ImportFormats, MergeRefusesTheSameCaseTwice) {
  const auto a = import_own("perftest-read-lat.txt");
  EXPECT_THROW(reports::import::merge_imports({a, a}, {"a.txt", "b.txt"}), core::input_error);
  const auto b = import_own("iperf3-reverse.json");
  const auto m = reports::import::merge_imports({a, b}, {"a.txt", "b.txt"});
  EXPECT_EQ(m.results.size(), 2u);
  EXPECT_EQ(m.system.at("host"), "client-a");
}

// Inputs the fuzz targets found, written out so the fixes stay.
TEST(ImportFuzzFindings, NumberOverflowInJsonIsBadInput) {
  const std::string text = "\n\t5E5555555%555555555v\xfeo\x1b";
  reports::import::import_options o{"f.json", ""};
  EXPECT_THROW(reports::import::parse_json_text(text, o), core::input_error);
  EXPECT_THROW(reports::import::parse_json_text("[1e999999]", o), core::input_error);
}

// A second table header of other columns (one group, after rows of two) read the earlier
// rows' missing in-place group: a heap overflow, now bad input naming the line.
TEST(ImportFuzzFindings, SecondTableHeaderOfOtherColumnsIsBadInput) {
  const std::string text =
      "# Collective test starting: all_reduce_perf\n"
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20\n"
      "#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n"
      "    8     2  float  sum  -1  10.0  0.00  0.00  0  10.0  0.00  0.00  0\n"
      "#  size  count  type  redop  root  time  algbw  busbw #wrong\n"
      "   16     4  float  sum  -1  10.0  0.00  0.00  0\n"
      "# Avg bus bandwidth    : 0.0000\n";
  reports::import::import_options o{"two-tables.txt", ""};
  try {
    reports::import::import_text(text, o);
    FAIL() << "a second table of other columns was accepted";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("two-tables.txt:5: expected the table columns of the "
                                         "earlier header at line 3"),
              std::string::npos)
        << e.what();
  }
}

TEST(ImportFuzzFindings, ImplausibleBusBandwidthIsBadInput) {
  std::string text = read_text(own("nccl-old-alltoall.txt"));
  const std::string busbw = "17.48";
  text.replace(text.find(busbw), busbw.size(), "1" + std::string(120, '6') + ".48");
  reports::import::import_options o{"big.txt", "alltoall"};
  try {
    reports::import::import_text(text, o);
    FAIL() << "a busbw of 1e120 GB/s was accepted";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("big.txt:14: expected a table row"), std::string::npos)
        << e.what();
  }
}

TEST(ImportCompare, OneValueGetsNoSignificanceTest) {
  auto base = import_own("nccl-allgather-interleaved.txt");
  // Its out-of-place 4 MiB row counts wrong elements, which fails that case (the data check's
  // own test is above); compare's verdict on one value is what is tested here.
  for (auto& c : base.results) {
    c.status = core::case_status::ok;
    c.reason.clear();
  }
  auto slower = base;
  slower.results[0].points[2].samples = {1.42};
  slower.results[0].points[2].stats.median = 1.42;
  const auto c = reports::compare::compare_results(base, slower, {});
  ASSERT_EQ(c.rows.size(), 6u);
  EXPECT_FALSE(c.regressed());  // a drop of 41 % on one printed value: reported, not judged
  EXPECT_EQ(c.rows[2].result, reports::compare::verdict::noisy);
  EXPECT_FALSE(c.rows[2].test);
  EXPECT_NE(c.rows[2].note.find("one value, no significance test"), std::string::npos);
  EXPECT_EQ(c.rows[0].result, reports::compare::verdict::same);
  EXPECT_EQ(c.rows[0].note, "one value, no significance test");
}

TEST(ImportProjection, OneAndTwoNodeLogsImportedTogetherProject) {
  const auto one = import_own("nccl-allreduce-1node.txt");
  const auto two = import_own("nccl-allreduce-2nodes.txt");
  EXPECT_EQ(one.results[0].params.at("nodes"), 1);
  EXPECT_EQ(two.results[0].params.at("nodes"), 2);
  reports::model::run_input run;
  run.path = "both.json";
  run.file = reports::import::merge_imports({one, two}, {"one.txt", "two.txt"});
  ASSERT_EQ(run.file.results.size(), 4u);
  const auto summary =
      reports::page_one::projection::projection_summary(run, reports::model::report_options{});
  ASSERT_TRUE(summary);
  EXPECT_NE(summary->find("scaling efficiency allreduce 99 % at 2 nodes"), std::string::npos)
      << *summary;
}

}  // namespace
}  // namespace gpubench::test_import

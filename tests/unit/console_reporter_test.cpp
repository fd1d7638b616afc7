// The run's console output, byte for byte: progress lines and the summary table.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "core/reporters/console_reporter.hpp"

using namespace gpubench::core;

namespace {

// What a FILE* received, read back from the start.
std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, f))
    out.append(buf, n);
  return out;
}

point_result point(std::uint64_t bytes, double min, double median, double mean, double max,
                   std::size_t count, std::string stopped_by) {
  point_result p;
  p.bytes = bytes;
  p.stats.min = min;
  p.stats.median = median;
  p.stats.mean = mean;
  p.stats.max = max;
  p.stats.p99 = max;
  p.stats.count = count;
  p.stopped_by = std::move(stopped_by);
  return p;
}

result_file sample_run() {
  result_file f;
  f.run.status = run_status::partial;
  case_result bw;
  bw.benchmark = "gpu.h2d";
  bw.params = {{"gpu", 0}, {"memory", "pinned"}, {"engine", "ce"}};
  bw.metric = "bandwidth";
  bw.unit = "GB/s";
  bw.better = "higher";
  bw.peak = peak_info{31.5, "GB/s", "PCIe 4.0 x16, 31.5 GB/s per direction"};
  bw.points = {point(4096, 1.2, 1.5, 1.4, 1.9, 100, "noise"),
               point(1ull << 30, 20, 25.25, 24.5, 26.125, 30, "timeout"),
               point(123456789012345, 0.0004, 123456789012.0, NAN, 2e15, 1234567890, "")};
  f.results.push_back(bw);
  case_result nopeak = bw;
  nopeak.benchmark = "memory.host.copy";
  nopeak.params = nlohmann::json::object();
  nopeak.peak.reset();
  nopeak.points.resize(1);
  f.results.push_back(nopeak);
  case_result lat;
  lat.benchmark = "net.tcp.latency";
  lat.params = {{"peer", "198.18.0.2:18515"}, {"streams", 1}};
  lat.metric = "latency";
  lat.unit = "us";
  lat.better = "lower";
  lat.points = {point(64, 10.5, 12.25, 13, 150.5, 1000, "max_samples"),
                point(65536, 0.05, 0.5, 0.75, 1500, 7, "")};
  f.results.push_back(lat);
  case_result skipped;
  skipped.benchmark = "net.rdma.latency";
  skipped.params = {{"device", "mlx5_0"}};
  skipped.status = case_status::skipped;
  skipped.reason = "needs an RDMA device: none found";
  f.results.push_back(skipped);
  case_result failed = lat;
  failed.status = case_status::failed;
  failed.reason = "connecting to 198.18.0.2:18515: connection refused after 5 s";
  failed.points.resize(1);
  f.results.push_back(failed);
  return f;
}

}  // namespace

TEST(ConsoleReporter, TableIsUnchanged) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> table(std::tmpfile(), std::fclose);
  ASSERT_TRUE(table);
  console_reporter r(table.get(), table.get(), progress_style::none);
  r.run_finished(sample_run());
  // A value wider than its column pushes the rest of its line right; the table stays fixed.
  EXPECT_EQ(
      contents(table.get()),
      "\n"
      "# gpu.h2d [engine=ce gpu=0 memory=pinned]\n"
      "#   peak 31.50 GB/s (PCIe 4.0 x16, 31.5 GB/s per direction)\n"
      "#        size     median       mean       peak   unit    %peak  samples  stopped by\n"
      "        4 KiB       1.50       1.40       1.90   GB/s      4.8      100  noise\n"
      "        1 GiB      25.25      24.50      26.12   GB/s     80.2       30  timeout\n"
      "   123456789012345 B 123456789012          - 2000000000000000   GB/s 391926314323.8 "
      "1234567890  \n"
      "\n"
      "# memory.host.copy\n"
      "#        size     median       mean       peak   unit           samples  stopped by\n"
      "        4 KiB       1.50       1.40       1.90   GB/s               100  noise\n"
      "\n"
      "# net.tcp.latency [peer=198.18.0.2:18515 streams=1]\n"
      "#        size        min     median        p99        max   unit  samples  stopped by\n"
      "         64 B      10.50      12.25      150.5      150.5     us     1000  max_samples\n"
      "       64 KiB      0.050      0.500       1500       1500     us        7  \n"
      "\n"
      "# net.rdma.latency [device=mlx5_0]\n"
      "#   skipped: needs an RDMA device: none found\n"
      "\n"
      "# net.tcp.latency [peer=198.18.0.2:18515 streams=1]\n"
      "#   failed: connecting to 198.18.0.2:18515: connection refused after 5 s\n"
      "#        size        min     median        p99        max   unit  samples  stopped by\n"
      "         64 B      10.50      12.25      150.5      150.5     us     1000  max_samples\n"
      "\n"
      "# 5 cases: 3 ok, 1 skipped, 1 failed; run partial\n");
}

TEST(ConsoleReporter, LiveProgressIsOneUpdatingLine) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> progress(std::tmpfile(), std::fclose);
  ASSERT_TRUE(progress);
  console_reporter r(progress.get(), progress.get(), progress_style::live);
  const result_file f = sample_run();
  for (std::size_t i = 0; i < f.results.size(); ++i) {
    r.case_started(f.results[i], {i, f.results.size(), "T" + std::to_string(i)});
    for (const auto& p : f.results[i].points)
      r.point_finished(f.results[i], p);
    r.case_finished(f, f.results[i]);
  }
  EXPECT_EQ(
      contents(progress.get()),
      "\r\033[K[1/5] gpu.h2d [engine=ce gpu=0 memory=pinned] (T0)"
      "\r\033[K[1/5] gpu.h2d [engine=ce gpu=0 memory=pinned]  4 KiB: 1.50 GB/s"
      "\r\033[K[1/5] gpu.h2d [engine=ce gpu=0 memory=pinned]  1 GiB: 25.25 GB/s"
      "\r\033[K[1/5] gpu.h2d [engine=ce gpu=0 memory=pinned]  123456789012345 B: 123456789012 GB/s"
      "\r\033[K[1/5] gpu.h2d [engine=ce gpu=0 memory=pinned]: 3 points\n"
      "\r\033[K[2/5] memory.host.copy (T1)"
      "\r\033[K[2/5] memory.host.copy  4 KiB: 1.50 GB/s"
      "\r\033[K[2/5] memory.host.copy: 1 points\n"
      "\r\033[K[3/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1] (T2)"
      "\r\033[K[3/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1]  64 B: 12.25 us"
      "\r\033[K[3/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1]  64 KiB: 0.500 us"
      "\r\033[K[3/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1]: 2 points\n"
      "\r\033[K[4/5] net.rdma.latency [device=mlx5_0] (T3)"
      "\r\033[K[4/5] net.rdma.latency [device=mlx5_0]: skipped\n"
      "\r\033[K[5/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1] (T4)"
      "\r\033[K[5/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1]  64 B: 12.25 us"
      "\r\033[K[5/5] net.tcp.latency [peer=198.18.0.2:18515 streams=1]: failed\n");
}

TEST(ConsoleReporter, ProgressToAFileIsAPlainLinePerCase) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> progress(std::tmpfile(), std::fclose);
  ASSERT_TRUE(progress);
  console_reporter r(progress.get(), progress.get(), progress_style::lines);
  result_file f = sample_run();
  f.results.resize(2);
  for (std::size_t i = 0; i < f.results.size(); ++i) {
    r.case_started(f.results[i], {i, f.results.size(), "3 s elapsed, at most 10 s left"});
    for (const auto& p : f.results[i].points)
      r.point_finished(f.results[i], p);
    r.case_finished(f, f.results[i]);
  }
  EXPECT_EQ(contents(progress.get()),
            "# [1/2] gpu.h2d [engine=ce gpu=0 memory=pinned] (3 s elapsed, at most 10 s left)\n"
            "# [2/2] memory.host.copy (3 s elapsed, at most 10 s left)\n");
}

TEST(ConsoleReporter, QuietPrintsNoProgress) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> progress(std::tmpfile(), std::fclose);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> table(std::tmpfile(), std::fclose);
  ASSERT_TRUE(progress && table);
  console_reporter r(table.get(), progress.get(), progress_style::none);
  const result_file f = sample_run();
  r.case_started(f.results[0], {0, 1, "x"});
  r.point_finished(f.results[0], f.results[0].points[0]);
  r.case_finished(f, f.results[0]);
  EXPECT_EQ(contents(progress.get()), "");
}

// The OpenMetrics text of a run: families in base units, labels escaped, the run's cases by
// status, a cluster node's cases under its own host, "# EOF" last. The integration test
// metrics_cli parses a real run's file with Prometheus' own parsers.
#include "core/openmetrics.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpubench::core {
namespace {

case_result measured_case(std::string benchmark, std::string metric, std::string unit,
                          nlohmann::json params,
                          std::vector<std::pair<std::uint64_t, double>> points) {
  case_result c;
  c.benchmark = std::move(benchmark);
  c.metric = std::move(metric);
  c.unit = std::move(unit);
  c.params = std::move(params);
  for (const auto& [bytes, median] : points) {
    point_result p;
    p.bytes = bytes;
    p.stats.count = 10;
    p.stats.median = median;
    c.points.push_back(p);
  }
  return c;
}

result_file metrics_run() {
  result_file f;
  f.system = {{"host", "node\"7"}};
  f.run.suite = "memory";
  f.run.finished = "2026-11-22T06:44:49Z";
  f.results.push_back(measured_case("memory.host.copy", "bandwidth", "GB/s", {{"threads", 4}},
                                    {{4096, 12.5}, {1048576, 20.25}}));
  f.results.push_back(measured_case("net.tcp.latency", "latency", "us",
                                    {{"peer", "198.18.0.2:18515"}, {"note", "a\\b\nc"}},
                                    {{64, 25.0}}));
  auto skipped = measured_case("gpu.h2d", "bandwidth", "GB/s", {}, {});
  skipped.status = case_status::skipped;
  f.results.push_back(skipped);
  return f;
}

TEST(OpenMetrics, WritesEachPointInBaseUnits) {
  const std::string text = openmetrics_text(metrics_run());
  EXPECT_NE(text.find("# TYPE gpubench_bandwidth_bytes_per_second gauge\n"
                      "# UNIT gpubench_bandwidth_bytes_per_second bytes_per_second\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpubench_bandwidth_bytes_per_second{benchmark=\"memory.host.copy\","
                      "params=\"threads=4\",size=\"1048576\",host=\"node\\\"7\"} 20250000000\n"),
            std::string::npos)
      << text;
  // Latency in seconds; a backslash and a newline in a label are escaped.
  EXPECT_NE(text.find("gpubench_latency_seconds{benchmark=\"net.tcp.latency\","
                      "params=\"note=a\\\\b\\nc, peer=198.18.0.2:18515\",size=\"64\","
                      "host=\"node\\\"7\"} 2.5e-05\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpubench_run_cases{host=\"node\\\"7\",suite=\"memory\",status=\"ok\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("status=\"skipped\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("status=\"failed\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("gpubench_run_finished_timestamp_seconds{host=\"node\\\"7\","
                      "suite=\"memory\"} 1795329889\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("gpu.h2d"), std::string::npos) << "a skipped case has no figures";
  ASSERT_GE(text.size(), 6U);
  EXPECT_EQ(text.substr(text.size() - 6), "# EOF\n");
}

TEST(OpenMetrics, ClusterNodesUnderTheirOwnHost) {
  auto f = metrics_run();
  f.run.finished.clear();  // a run still going has no finish time
  f.cluster.emplace();
  cluster_node node;
  node.name = "n002";
  node.results.push_back(
      measured_case("memory.host.copy", "bandwidth", "GB/s", {{"threads", 4}}, {{4096, 11.0}}));
  f.cluster->nodes.push_back(node);
  const std::string text = openmetrics_text(f);
  EXPECT_NE(text.find("size=\"4096\",host=\"n002\"} 11000000000\n"), std::string::npos) << text;
  // One family block: the node's sample follows the others of its family, before the next.
  EXPECT_LT(text.find("host=\"n002\""), text.find("# TYPE gpubench_latency_seconds"));
  EXPECT_EQ(text.find("gpubench_run_finished_timestamp_seconds"), std::string::npos);
}

TEST(OpenMetrics, WritesTheFileWhole) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpubench-openmetrics-" + std::to_string(::getpid()));
  const auto path = dir / "gpubench.prom";
  write_openmetrics(path, metrics_run());
  std::ifstream in(path);
  std::stringstream read;
  read << in.rdbuf();
  EXPECT_EQ(read.str(), openmetrics_text(metrics_run()));
  // Only the file itself is left in the directory (the temporary file was renamed).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  std::filesystem::remove_all(dir);
  EXPECT_THROW(write_openmetrics("/proc/gpubench-no/such.prom", metrics_run()), std::exception);
}

}  // namespace
}  // namespace gpubench::core

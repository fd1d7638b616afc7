#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/result_json.hpp"

using namespace gpubench::core;
namespace fs = std::filesystem;

namespace {

result_file sample_file() {
  result_file f;
  f.tool = {"gpubench", "0.1.0", "abc"};
  f.run = {"id1",    "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", {"gpubench", "run"},
           "memory", run_status::complete};
  f.system = {{"host", "h"}};
  case_result c;
  c.benchmark = "memory.host.copy";
  c.kind = host_memory_kind({"src_numa", "dst_numa"});
  c.params = {{"threads", 1}};
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  c.peak = peak_info{12.5, "GB/s", "100 Gbit/s NIC"};
  point_result p;
  p.bytes = 4096;
  p.samples = {1.0, 2.0, 3.0};
  p.stats = summarize(p.samples);
  p.stopped_by = "noise";
  p.extra = {{"cpu_seconds_per_gb", 0.5}};
  c.points.push_back(p);
  f.results.push_back(c);
  case_result s;
  s.benchmark = "gpu.h2d";
  s.kind = host_gpu_kind(directions::to_gpu, {"gpu", "numa"});
  s.status = case_status::skipped;
  s.reason = "needs a CUDA device: none found";
  s.metric = "bandwidth";
  s.unit = "GB/s";
  s.better = "higher";
  f.results.push_back(s);
  return f;
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("gpubench-test-" + std::to_string(::getpid()) + "-" + name);
}

}  // namespace

TEST(ResultJson, RoundTrip) {
  const result_file f = sample_file();
  const nlohmann::json j = to_json(f);
  const result_file back = result_from_json(j, "mem");
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.results[0].points[0].samples.size(), 3u);
  EXPECT_EQ(back.results[1].reason, "needs a CUDA device: none found");
  EXPECT_TRUE(j["results"][0]["points"][0]["stats"]["median"].is_number());
}

TEST(ResultJson, AtomicWriteThenRead) {
  const auto path = temp_path("rt.json");
  write_result_file(path, sample_file());
  const result_file back = read_result_file(path);
  EXPECT_EQ(back.results.size(), 2u);
  fs::remove(path);
}

TEST(ResultJson, RejectsWrongSchema) {
  nlohmann::json j = to_json(sample_file());
  j["schema"] = "other/9";
  try {
    result_from_json(j, "x.json");
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("x.json: schema is 'other/9'"), std::string::npos)
        << e.what();
  }
}

TEST(ResultJson, RejectsWrongTypesNamingTheField) {
  nlohmann::json j = to_json(sample_file());
  j["results"][0]["points"][0]["stats"]["median"] = "fast";
  try {
    result_from_json(j, "x.json");
    FAIL();
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "x.json: results[0].points[0].stats.median: expected a number");
  }
  j = to_json(sample_file());
  j["results"][1].erase("reason");
  EXPECT_THROW(result_from_json(j, "x.json"), input_error);
  j = to_json(sample_file());
  j.erase("run");
  EXPECT_THROW(result_from_json(j, "x.json"), input_error);
}

TEST(ResultJson, RejectsTruncatedEmptyAndMissingFiles) {
  const auto path = temp_path("bad.json");
  const std::string text = to_json(sample_file()).dump();
  std::ofstream(path) << text.substr(0, text.size() / 2);
  try {
    read_result_file(path);
    FAIL();
  } catch (const input_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": not valid JSON", 0), 0u) << e.what();
  }
  std::ofstream(path, std::ios::trunc) << "  \n";
  EXPECT_THROW(read_result_file(path), input_error);
  std::ofstream(path, std::ios::trunc) << "[1,2]";
  EXPECT_THROW(read_result_file(path), input_error);
  fs::remove(path);
  EXPECT_THROW(read_result_file(path), input_error);
}

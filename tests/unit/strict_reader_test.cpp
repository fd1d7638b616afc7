// The strict reader of result and reference files: what `report` and `compare` refuse.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "core/strict_json.hpp"
#include "reports/compare/references.hpp"

using namespace gpubench::core;
namespace fs = std::filesystem;

namespace {

result_file one_latency_case() {
  result_file f;
  f.tool = {"gpubench", "0.1.0", "abc"};
  f.run = {"id1",     "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", {"gpubench", "run"},
           "network", run_status::complete};
  f.system = {{"host", "h"}};
  case_result c;
  c.benchmark = "net.tcp.latency";
  c.params = {{"peer", "loopback"}};
  c.metric = "latency";
  c.unit = "us";
  c.better = "lower";
  point_result p;
  p.bytes = 64;
  p.samples = {10.0, 11.0, 12.0};
  p.stats = summarize(p.samples);
  c.points.push_back(p);
  f.results.push_back(c);
  return f;
}

// The message of the input_error that reading `text` as a file throws ("" when none).
std::string read_error(const std::string& text) {
  const fs::path path =
      fs::temp_directory_path() / ("gpubench-strict-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path, std::ios::trunc) << text;
  std::string message;
  try {
    read_result_file(path);
  } catch (const input_error& e) {
    message = e.what();
  }
  fs::remove(path);
  return message;
}

std::string from_json_error(const nlohmann::json& j) {
  try {
    result_from_json(j, "x.json");
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(StrictReader, ReadsAGoodFile) {
  EXPECT_EQ(read_error(to_json(one_latency_case()).dump()), "");
}

TEST(StrictReader, DuplicateKeyAtTheTopNamesIt) {
  std::string text = to_json(one_latency_case()).dump();
  text.insert(1, fmt::format("\"schema\":\"{}\",", result_schema_id));  // twice
  EXPECT_NE(read_error(text).find("duplicate key 'schema'"), std::string::npos) << read_error(text);
}

TEST(StrictReader, DuplicateKeyDeepInsideNamesItsPath) {
  std::string text = to_json(one_latency_case()).dump();
  const auto at = text.find("\"benchmark\":");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "\"benchmark\":\"gpu.h2d\",");
  EXPECT_NE(read_error(text).find("duplicate key 'results[0].benchmark'"), std::string::npos)
      << read_error(text);
  std::string stats = to_json(one_latency_case()).dump();
  const auto median = stats.find("\"median\":");
  stats.insert(median, "\"median\":1,");
  EXPECT_NE(read_error(stats).find("duplicate key 'results[0].points[0].stats.median'"),
            std::string::npos)
      << read_error(stats);
}

TEST(StrictReader, SameKeyInSiblingObjectsIsFine) {
  result_file f = one_latency_case();
  f.results.push_back(f.results[0]);
  f.results[1].params["peer"] = "other";
  EXPECT_EQ(read_error(to_json(f).dump()), "");
}

TEST(StrictReader, EmptySamplesInAnOkPoint) {
  nlohmann::json j = to_json(one_latency_case());
  j["results"][0]["points"][0]["samples"] = nlohmann::json::array();
  EXPECT_EQ(from_json_error(j),
            "x.json: results[0].points[0].samples: empty in a point of a case whose status is ok");
}

TEST(StrictReader, NegativeLatencyNamesTheField) {
  nlohmann::json j = to_json(one_latency_case());
  j["results"][0]["points"][0]["samples"][1] = -3.0;
  EXPECT_NE(from_json_error(j).find("results[0].points[0].samples[1]: -3 is negative"),
            std::string::npos)
      << from_json_error(j);
  j = to_json(one_latency_case());
  j["results"][0]["points"][0]["stats"]["median"] = -1.0;
  EXPECT_NE(from_json_error(j).find("results[0].points[0].stats.median: -1 is negative"),
            std::string::npos)
      << from_json_error(j);
}

TEST(StrictReader, NegativeBandwidthRefusedOtherMetricsNot) {
  nlohmann::json j = to_json(one_latency_case());
  j["results"][0]["metric"] = "bandwidth";
  j["results"][0]["points"][0]["samples"][0] = -1.0;
  EXPECT_NE(from_json_error(j).find("is negative"), std::string::npos);
  j["results"][0]["metric"] = "offset";  // a metric that may be negative
  j["results"][0]["points"][0]["stats"]["min"] = -1.0;
  EXPECT_EQ(from_json_error(j), "");
}

TEST(StrictReader, ImplausibleAndOverflowingNumbers) {
  std::string text = to_json(one_latency_case()).dump();
  const auto at = text.find("[10.0");
  ASSERT_NE(at, std::string::npos) << text;
  std::string huge = text;
  huge.replace(at + 1, 4, "1e308");
  EXPECT_NE(read_error(huge).find("samples[0]: 1e+308 is beyond any plausible measurement"),
            std::string::npos)
      << read_error(huge);
  std::string overflow = text;
  overflow.replace(at + 1, 4, "1e400");  // parses as infinity
  const std::string message = read_error(overflow);
  EXPECT_NE(message.find("samples[0]"), std::string::npos) << message;
  EXPECT_FALSE(message.empty());
}

TEST(StrictReader, NullSampleInAnOkPoint) {
  nlohmann::json j = to_json(one_latency_case());
  j["results"][0]["points"][0]["samples"][2] = nullptr;
  EXPECT_EQ(from_json_error(j),
            "x.json: results[0].points[0].samples[2]: expected a finite number, found null");
}

TEST(StrictReader, DirectoryIsSaidToBeADirectory) {
  const fs::path dir =
      fs::temp_directory_path() / ("gpubench-strict-dir-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  try {
    read_result_file(dir);
    FAIL() << "a directory was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gpubench::reports::compare::read_reference_file(dir), input_error);
  fs::remove(dir);
}

TEST(StrictReader, ReferenceFileWithDuplicateKey) {
  const fs::path path =
      fs::temp_directory_path() / ("gpubench-strict-refs-" + std::to_string(::getpid()));
  std::ofstream(path) << R"({"schema": "gpubench.references/1", "systems": [{"label": "a",
    "references": [{"benchmark": "net.tcp.latency", "unit": "us", "expected": 10,
                    "upper": 12, "upper": 1000}]}]})";
  try {
    gpubench::reports::compare::read_reference_file(path);
    FAIL() << "a duplicate key was accepted";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("duplicate key 'systems[0].references[0].upper'"),
              std::string::npos)
        << e.what();
  }
  fs::remove(path);
}

TEST(StrictReader, ParseJsonStrictNamesOrigin) {
  std::istringstream in(R"({"a": {"b": 1, "b": 2}})");
  try {
    parse_json_strict(in, "origin");
    FAIL();
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "origin: duplicate key 'a.b' (a key may appear once)");
  }
  std::istringstream ok(R"([{"b": 1}, {"b": 2}, [{"b": 3}]])");
  EXPECT_EQ(parse_json_strict(ok, "origin").size(), 3u);
}

// The result model of gpubench.result/1: what a run measured, in memory. See result_json.hpp
// for its JSON form and docs/result-schema.md for the contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/statistics.hpp"

namespace gpubench::core {

inline constexpr const char* result_schema_id = "gpubench.result/1";

// The physical limit of the path a case crossed, for "% of line rate".
struct peak_info {
  double value = 0;
  std::string unit;   // same unit as the case's metric
  std::string basis;  // how it was derived: "PCIe 5.0 x16, 63.0 GB/s per direction"
};

struct point_result {
  std::uint64_t bytes = 0;
  summary stats;
  std::vector<double> samples;                      // raw per-sample values, in the metric's unit
  nlohmann::json extra = nlohmann::json::object();  // cpu_seconds_per_gb, algbw, busbw, ...
  std::string stopped_by;                           // noise | timeout | max_samples | interrupted
  std::size_t warmup = 0;                           // warm-up samples, not counted
  double seconds = 0;                               // wall time of the timed samples
};

enum class case_status { ok, skipped, failed };
std::string to_string(case_status s);

struct case_result {
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();
  case_status status = case_status::ok;
  std::string reason;  // only when not ok
  std::string metric;  // "bandwidth" | "latency"
  std::string unit;    // "GB/s" | "us"
  std::string better;  // "higher" | "lower"
  std::optional<peak_info> peak;
  nlohmann::json context = nlohmann::json::object();  // the path: peer, interface, device, ...
  std::vector<point_result> points;
};

struct tool_info {
  std::string name = "gpubench";
  std::string version;
  std::string git;
};

enum class run_status { running, complete, partial, failed };
std::string to_string(run_status s);

struct run_info {
  std::string id;
  std::string started;   // RFC 3339
  std::string finished;  // RFC 3339, empty while running
  std::vector<std::string> argv;
  std::string suite;
  run_status status = run_status::running;
};

struct result_file {
  std::string schema = result_schema_id;
  tool_info tool;
  run_info run;
  nlohmann::json system = nlohmann::json::object();
  std::vector<case_result> results;
};

}  // namespace gpubench::core

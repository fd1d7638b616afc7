#include "reports/import/nccl_tests_json.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "reports/import/json_text.hpp"
#include "reports/import/nccl_tests.hpp"
#include "reports/import/nccl_tests_log.hpp"

namespace gpubench::reports::import {

namespace {

using value_t = nlohmann::json::value_t;

// nccl-tests writes doubles with %lf, NaN as the string "nan", and booleans as strings.
std::optional<double> number_of(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  const double v = j.at(key).get<double>();
  if (!std::isfinite(v) || std::fabs(v) > core::plausible_limit) return std::nullopt;
  return v;
}

double required(const nlohmann::json& j, const char* key, const import_options& o,
                const std::string& where) {
  const auto v = number_of(j, key);
  if (!v || *v < 0) fail(o, 0, fmt::format("{}.{} as a number of 0 or more", where, key));
  return *v;
}

// -I: "out_of_place_per_iter": {min_us, ..., times_us: [...], per_process_max_times_us: [[...]]}
nlohmann::json per_iteration(const nlohmann::json& j) {
  nlohmann::json extra = nlohmann::json::object();
  if (!j.is_object()) return extra;
  for (const char* key : {"min_us", "max_us", "avg_us", "p50_us", "p95_us", "p99_us", "stdev_us"})
    if (const auto v = number_of(j, key)) extra[std::string("iter_") + key] = *v;
  if (const auto v = number_of(j, "cv_pct")) extra["iter_cv_pct"] = *v;
  if (const auto v = number_of(j, "skipped_iterations")) extra["iter_skipped"] = *v;
  const auto numbers = [](const nlohmann::json& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : list)
      if (v.is_number() && std::isfinite(v.get<double>())) out.push_back(v.get<double>());
    return out;
  };
  if (j.contains("times_us") && j.at("times_us").is_array())
    extra["iter_times_us"] = numbers(j.at("times_us"));
  // One row per process: the slowest GPU of that process, per iteration (straggler hunting).
  if (j.contains("per_process_max_times_us") && j.at("per_process_max_times_us").is_array()) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : j.at("per_process_max_times_us"))
      if (row.is_array()) rows.push_back(numbers(row));
    extra["iter_process_max_times_us"] = rows;
  }
  return extra;
}

}  // namespace

core::result_file parse_nccl_tests_json(const nlohmann::json& j, const import_options& o) {
  nccl_log log;
  log.src = {"nccl-tests", "", "", o.name, ""};
  if (j.contains("args") && j.at("args").is_array() && !j.at("args").empty()) {
    std::string command;
    for (const auto& a : j.at("args"))
      if (a.is_string()) command += (command.empty() ? "" : " ") + a.get<std::string>();
    log.src.command = command;
    if (j.at("args")[0].is_string()) {
      const auto program = std::filesystem::path(j.at("args")[0].get<std::string>());
      log.op = nccl_tests_operation(program.filename().string());
      if (!log.op.empty()) log.src.test = log.op + "_perf";
    }
  }
  if (const auto v = number_of(j, "nccl_version"); v && *v >= 10000) {
    const auto code = static_cast<long long>(*v);
    log.nccl = fmt::format("{}.{}.{}", code / 10000, code / 100 % 100, code % 100);
  }
  if (j.contains("config") && j.at("config").is_object() && j.at("config").contains("devices") &&
      j.at("config").at("devices").is_array())
    for (const auto& d : j.at("config").at("devices")) {
      if (!d.is_object()) continue;
      nccl_device dev;
      // Ranks and device indices are small; anything else is no index (and no int).
      const auto index = [&](const char* key) {
        const double v = number_of(d, key).value_or(0);
        return v >= 0 && v <= 1e6 ? static_cast<int>(v) : 0;
      };
      dev.rank = index("rank");
      dev.device = index("device");
      dev.host = string_or_empty(d, "hostname");
      dev.bus = string_or_empty(d, "device_hex");
      dev.name = string_or_empty(d, "device_info");
      log.devices.push_back(std::move(dev));
    }
  const auto& results = member(j, "results", value_t::array, o, "");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string where = fmt::format("results[{}]", i);
    const auto& r = results[i];
    if (!r.is_object()) fail(o, 0, where + " as an object");
    nccl_size_row row;
    row.bytes = static_cast<std::uint64_t>(required(r, "size", o, where));
    row.count = static_cast<std::uint64_t>(required(r, "count", o, where));
    row.type = string_or_empty(r, "type");
    row.redop = std::string(trim(string_or_empty(r, "redop")));
    const std::string root_text = string_or_empty(r, "root");
    if (const auto root = to_number(trim(root_text))) row.root = std::llround(*root);
    for (const char* placement : {"out_of_place", "in_place"}) {
      const std::string at = where + "." + placement;
      // Trace replay writes null out of place: that placement was not run.
      if (!r.contains(placement) || r.at(placement).is_null()) {
        if (std::string(placement) == "out_of_place") fail(o, 0, at + " as an object");
        continue;
      }
      const auto& g = member(r, placement, value_t::object, o, where);
      nccl_figures fig;
      fig.time_us =
          g.contains("time") ? required(g, "time", o, at) : required(g, "cpu_time", o, at);
      fig.algbw = required(g, "alg_bw", o, at);
      fig.busbw = required(g, "bus_bw", o, at);
      if (const auto w = number_of(g, "nwrong"); w && *w >= 0)
        fig.wrong = static_cast<std::uint64_t>(*w);
      const std::string per_iter = std::string(placement) + "_per_iter";
      if (r.contains(per_iter)) fig.extra = per_iteration(r.at(per_iter));
      row.groups.push_back(std::move(fig));
    }
    if (!log.rows.empty() && row.groups.size() != log.rows.front().groups.size())
      fail(o, 0, fmt::format("{} with the placements of results[0]", where));
    log.groups = row.groups.size();
    log.rows.push_back(std::move(row));
  }
  if (log.rows.empty()) fail(o, 0, "results with at least one size");
  // "average_bus_bandwidith" before nccl-tests fixed its spelling (early 2026).
  for (const char* key : {"average_bus_bandwidth", "average_bus_bandwidith"})
    if (j.contains(key) && j.at(key).is_object())
      for (const char* value : {"bandwidth", "bandwidith"})
        if (const auto v = number_of(j.at(key), value)) log.avg_busbw = *v;
  if (j.contains("start_time") && j.at("start_time").is_string())
    log.context["started"] = j.at("start_time");
  core::result_file file = nccl_log_result(std::move(log), o);
  return file;
}

}  // namespace gpubench::reports::import

#include "core/openmetrics.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/params_text.hpp"
#include "core/result_json.hpp"

namespace gpubench::core {
namespace {

// A measured metric and its unit as a metric family in base units.
struct family_spec {
  std::string_view metric;
  std::string_view unit;
  std::string_view name;
  std::string_view base_unit;
  int exponent;  // one unit of the result file is 10^exponent base units
  std::string_view help;
};

constexpr std::array<family_spec, 3> metric_families{{
    {"bandwidth", "GB/s", "gpubench_bandwidth_bytes_per_second", "bytes_per_second", 9,
     "Median bandwidth of a measured point, decimal bytes per second."},
    {"latency", "us", "gpubench_latency_seconds", "seconds", -6,
     "Median one-way latency of a measured point, seconds."},
    {"message_rate", "Mpps", "gpubench_message_rate_messages_per_second", "messages_per_second", 6,
     "Median message rate of a measured point, messages per second."},
}};

// Divided rather than multiplied by a negative power of ten: 25 us is 2.5e-05 s, not 25 * 1e-6.
double in_base_units(double value, int exponent) {
  const double power = std::pow(10.0, std::abs(exponent));
  return exponent >= 0 ? value * power : value / power;
}

std::string escape_label(std::string_view v) {
  std::string out;
  for (const char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

using labels = std::vector<std::pair<std::string_view, std::string>>;

std::string sample_line(std::string_view name, const labels& l, double value) {
  std::string text(name);
  text += '{';
  for (std::size_t i = 0; i < l.size(); ++i) {
    text += fmt::format("{}{}=\"{}\"", i ? "," : "", l[i].first, escape_label(l[i].second));
  }
  // Shortest round-trip form; OpenMetrics spells the non-finite values NaN, +Inf and -Inf.
  const std::string number = std::isnan(value)   ? "NaN"
                             : std::isinf(value) ? (value > 0 ? "+Inf" : "-Inf")
                                                 : fmt::format("{}", value);
  return text + "} " + number + "\n";
}

std::string family_header(std::string_view name, std::string_view help,
                          std::optional<std::string_view> unit = std::nullopt) {
  std::string text = fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
  if (unit) text += fmt::format("# UNIT {} {}\n", name, *unit);
  return text;
}

// The points of `cases` measured on `host`, appended to their family's samples.
void add_points(const std::vector<case_result>& cases, const std::string& host,
                std::array<std::string, metric_families.size()>& samples) {
  for (const auto& c : cases) {
    if (c.status != case_status::ok) continue;
    for (std::size_t f = 0; f < metric_families.size(); ++f) {
      if (c.metric != metric_families[f].metric || c.unit != metric_families[f].unit) continue;
      const std::string params = params_text(c.params);
      for (const auto& p : c.points) {
        if (p.stats.count == 0) continue;
        samples[f] += sample_line(metric_families[f].name,
                                  {{"benchmark", c.benchmark},
                                   {"params", params},
                                   {"size", std::to_string(p.bytes)},
                                   {"host", host}},
                                  in_base_units(p.stats.median, metric_families[f].exponent));
      }
    }
  }
}

// "2026-11-22T06:44:49Z" as seconds since the epoch; none for anything else.
std::optional<double> epoch_seconds(const std::string& rfc3339) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(rfc3339.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon,
                  &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
      static_cast<std::size_t>(consumed) != rfc3339.size()) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<double>(::timegm(&tm));
}

}  // namespace

std::string openmetrics_text(const result_file& file) {
  const std::string host = file.system.value("host", "");
  std::array<std::string, metric_families.size()> samples;
  add_points(file.results, host, samples);
  if (file.cluster) {
    for (const auto& node : file.cluster->nodes)
      add_points(node.results, node.name, samples);
  }
  std::string text;
  for (std::size_t f = 0; f < metric_families.size(); ++f) {
    if (samples[f].empty()) continue;
    text += family_header(metric_families[f].name, metric_families[f].help,
                          metric_families[f].base_unit) +
            samples[f];
  }
  std::map<std::string, int> by_status{{"ok", 0}, {"skipped", 0}, {"failed", 0}};
  for (const auto& c : file.results)
    ++by_status[to_string(c.status)];
  text += family_header("gpubench_run_cases", "Cases of the run by status.");
  for (const auto& [status, count] : by_status) {
    text += sample_line("gpubench_run_cases",
                        {{"host", host}, {"suite", file.run.suite}, {"status", status}}, count);
  }
  if (const auto finished = epoch_seconds(file.run.finished)) {
    text += family_header("gpubench_run_finished_timestamp_seconds",
                          "When the run finished, seconds since the epoch.", "seconds");
    text += sample_line("gpubench_run_finished_timestamp_seconds",
                        {{"host", host}, {"suite", file.run.suite}}, *finished);
  }
  return text + "# EOF\n";
}

void write_openmetrics(const std::filesystem::path& path, const result_file& file) {
  write_file_atomically(path, openmetrics_text(file));
}

}  // namespace gpubench::core

#include "reports/render/csv_writer.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "reports/model/text_format.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

// RFC 4180: quote when the field holds a comma, a quote or a line break; double the quotes.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Full precision (shortest round trip), empty for a missing value.
std::string number(double v) {
  return std::isfinite(v) ? fmt::format("{}", v) : std::string();
}

void write_row(std::string& out, const std::vector<std::string>& row) {
  for (std::size_t i = 0; i < row.size(); ++i)
    out += (i ? "," : "") + field(row[i]);
  out += "\r\n";
}

}  // namespace

std::string to_csv(const std::vector<run_input>& runs) {
  std::vector<std::string> extras;
  for (const auto& r : runs)
    for (const auto& c : r.file.results)
      for (const auto& p : c.points)
        for (const auto& [key, value] : p.extra.items())
          if (value.is_number() && std::find(extras.begin(), extras.end(), key) == extras.end())
            extras.push_back(key);
  std::vector<std::string> header = {
      "run",    "host",  "benchmark",  "params", "status",     "reason",
      "metric", "unit",  "better",     "bytes",  "count",      "median",
      "mean",   "min",   "max",        "stdev",  "cv",         "p90",
      "p99",    "p99_9", "stopped_by", "peak",   "peak_basis", "percent_of_peak"};
  header.insert(header.end(), extras.begin(), extras.end());
  std::string out;
  write_row(out, header);
  for (const auto& r : runs) {
    for (const auto& c : r.file.results) {
      const std::vector<std::string> head = {r.file.run.id,
                                             r.file.system.value("host", std::string()),
                                             c.benchmark,
                                             params_text(c.params),
                                             core::to_string(c.status),
                                             c.reason,
                                             c.metric,
                                             c.unit,
                                             c.better};
      if (c.points.empty()) {
        auto row = head;
        row.resize(header.size());
        write_row(out, row);
        continue;
      }
      for (const auto& p : c.points) {
        auto row = head;
        const auto& s = p.stats;
        row.push_back(std::to_string(p.bytes));
        row.push_back(std::to_string(s.count));
        for (double v : {s.median, s.mean, s.min, s.max, s.stdev, s.cv, s.p90, s.p99})
          row.push_back(number(v));
        row.push_back(s.p999 ? number(*s.p999) : "");
        row.push_back(p.stopped_by);
        const bool peak = c.peak && c.peak->unit == c.unit && c.peak->value > 0;
        row.push_back(c.peak ? number(c.peak->value) : "");
        row.push_back(c.peak ? c.peak->basis : "");
        row.push_back(peak && c.better == "higher" ? number(s.median / c.peak->value * 100) : "");
        for (const auto& key : extras) {
          const auto it = p.extra.find(key);
          row.push_back(it != p.extra.end() && it->is_number() ? number(it->get<double>()) : "");
        }
        write_row(out, row);
      }
    }
  }
  return out;
}

}  // namespace gpubench::reports::render

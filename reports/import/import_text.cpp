#include "reports/import/import_text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "core/statistics.hpp"

namespace gpubench::reports::import {

std::vector<text_line> split_lines(std::string_view text) {
  std::vector<text_line> lines;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({++number, line});
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && blank(s.back()))
    s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::optional<double> to_number(std::string_view field) {
  double v = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, v);
  // Beyond the limit a result file may hold is no figure a tool printed, but a corrupt one.
  if (field.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) ||
      std::fabs(v) > core::plausible_limit)
    return std::nullopt;
  return v;
}

std::optional<std::uint64_t> to_count(std::string_view field) {
  std::uint64_t v = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, v);
  if (field.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

std::string valid_utf8(std::string_view text) {
  std::string out(text);
  std::size_t i = 0;
  while (i < out.size()) {
    const auto c = static_cast<unsigned char>(out[i]);
    std::size_t n = 0;  // continuation bytes the lead byte announces
    if (c < 0x80)
      n = 0;
    else if (c >= 0xc2 && c <= 0xdf)
      n = 1;
    else if (c >= 0xe0 && c <= 0xef)
      n = 2;
    else if (c >= 0xf0 && c <= 0xf4)
      n = 3;
    else {
      out[i++] = '?';
      continue;
    }
    bool ok = true;
    for (std::size_t k = 1; ok && k <= n; ++k)
      ok = i + k < out.size() && (static_cast<unsigned char>(out[i + k]) & 0xc0) == 0x80;
    // Overlong three-byte forms, surrogates and code points beyond U+10FFFF are not UTF-8.
    if (ok && n == 2) {
      const auto d = static_cast<unsigned char>(out[i + 1]);
      ok = !(c == 0xe0 && d < 0xa0) && !(c == 0xed && d >= 0xa0);
    }
    if (ok && n == 3) {
      const auto d = static_cast<unsigned char>(out[i + 1]);
      ok = !(c == 0xf0 && d < 0x90) && !(c == 0xf4 && d >= 0x90);
    }
    if (!ok) {
      out[i++] = '?';
      continue;
    }
    i += n + 1;
  }
  return out;
}

std::string prompt_host(std::string_view before) {
  before = trim(before);
  const auto at = before.find('@');
  if (at == std::string_view::npos || at == 0) return {};
  const auto end = before.find_first_of(": ", at);
  if (end == std::string_view::npos || end == at + 1) return {};
  const auto host = before.substr(at + 1, end - at - 1);
  for (char c : host)
    if (!(std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_'))
      return {};
  return std::string(host);
}

void fail(const import_options& o, std::size_t line, std::string_view expected,
          std::string_view found) {
  // A hostile line could be megabytes long or hold control bytes: show a short, plain excerpt.
  std::string shown;
  for (char c : found.substr(0, 80))
    shown += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  if (found.size() > 80) shown += "...";
  const std::string where = line ? fmt::format("{}:{}", o.name, line) : o.name;
  if (found.empty()) throw core::input_error(fmt::format("{}: expected {}", where, expected));
  throw core::input_error(fmt::format("{}: expected {}, found '{}'", where, expected, shown));
}

core::result_file imported_file(const import_options& o) {
  core::result_file f;
  f.tool.name = "gpubench";
  f.run.id = "import:" + o.name;
  f.run.started = core::rfc3339_now();
  f.run.finished = f.run.started;
  f.run.suite = "import";
  f.run.status = core::run_status::complete;
  f.system = nlohmann::json::object();
  return f;
}

core::case_result imported_case(std::string benchmark, core::measure_kind kind,
                                const core::import_source& source, bool higher_is_better) {
  core::case_result c;
  c.benchmark = std::move(benchmark);
  c.kind = std::move(kind);
  c.status = core::case_status::ok;
  c.metric = higher_is_better ? "bandwidth" : "latency";
  c.unit = higher_is_better ? "GB/s" : "us";
  c.better = higher_is_better ? "higher" : "lower";
  c.imported = source;
  return c;
}

core::point_result point_of(std::uint64_t bytes, const std::vector<double>& values) {
  core::point_result p;
  p.bytes = bytes;
  p.samples = values;
  p.stats = core::summarize(values);
  p.stopped_by = "imported";
  return p;
}

}  // namespace gpubench::reports::import

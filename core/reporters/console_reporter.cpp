#include "core/reporters/console_reporter.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/params_text.hpp"
#include "core/text_table.hpp"
#include "core/units.hpp"

namespace gpubench::core {

namespace {

std::string heading(const case_result& c) {
  const std::string p = params_text(c.params, " ");
  return p.empty() ? c.benchmark : c.benchmark + " [" + p + "]";
}

std::string value(double v) {
  if (!std::isfinite(v)) return "-";
  if (v >= 1000) return fmt::format("{:.0f}", v);
  if (v >= 100) return fmt::format("{:.1f}", v);
  if (v >= 1) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3f}", v);
}

// The columns of nccl-tests and perftest: fixed widths a space apart, so a long value shifts its
// line instead of widening the whole table, and the header is a comment ("#") for tools that
// read the numbers.
text_table fixed_table(std::vector<text_column> columns) {
  for (auto& c : columns)
    c.gap = 1;
  columns.push_back({"stopped by", align::left, 0, 2});
  text_table_style style;
  style.header_prefix = "#  ";
  style.row_prefix = "   ";
  style.fit = false;
  return text_table(std::move(columns), std::move(style));
}

text_table bandwidth_table(const case_result& c) {
  return fixed_table({{"size", align::right, 10},
                      {"median", align::right, 10},
                      {"mean", align::right, 10},
                      {"peak", align::right, 10},
                      {"unit", align::right, 6},
                      {c.peak ? "%peak" : "", align::right, 8},
                      {"samples", align::right, 8}});
}

text_table latency_table() {
  return fixed_table({{"size", align::right, 10},
                      {"min", align::right, 10},
                      {"median", align::right, 10},
                      {"p99", align::right, 10},
                      {"max", align::right, 10},
                      {"unit", align::right, 6},
                      {"samples", align::right, 8}});
}

}  // namespace

void console_reporter::case_started(const case_result& c, const run_position& at) {
  m_index = at.index + 1;
  m_total = at.total;
  m_time = at.time_text;
  if (m_progress == progress_style::none) return;
  if (m_progress == progress_style::lines)
    fmt::print(m_progress_out, "# [{}/{}] {} ({})\n", m_index, m_total, heading(c), m_time);
  else
    fmt::print(m_progress_out, "\r\033[K[{}/{}] {} ({})", m_index, m_total, heading(c), m_time);
  std::fflush(m_progress_out);
}

void console_reporter::point_finished(const case_result& c, const point_result& p) {
  if (m_progress != progress_style::live) return;
  fmt::print(m_progress_out, "\r\033[K[{}/{}] {}  {}: {} {}", m_index, m_total, heading(c),
             format_bytes(p.bytes), value(p.stats.median), c.unit);
  std::fflush(m_progress_out);
}

void console_reporter::case_finished(const result_file&, const case_result& c) {
  if (m_progress != progress_style::live) return;
  std::string status = to_string(c.status);
  if (c.status == case_status::ok) status = fmt::format("{} points", c.points.size());
  fmt::print(m_progress_out, "\r\033[K[{}/{}] {}: {}\n", m_index, m_total, heading(c), status);
  std::fflush(m_progress_out);
}

void console_reporter::run_finished(const result_file& file) {
  for (const auto& c : file.results) {
    fmt::print(m_table, "\n# {}\n", heading(c));
    if (c.status != case_status::ok)
      fmt::print(m_table, "#   {}: {}\n", to_string(c.status), c.reason);
    if (c.points.empty()) continue;
    if (c.peak)
      fmt::print(m_table, "#   peak {} {} ({})\n", value(c.peak->value), c.peak->unit,
                 c.peak->basis);
    const bool bw = c.better == "higher";
    text_table table = bw ? bandwidth_table(c) : latency_table();
    for (const auto& p : c.points) {
      const auto& s = p.stats;
      if (bw) {
        const std::string pct = c.peak && c.peak->value > 0
                                    ? fmt::format("{:.1f}", 100 * s.median / c.peak->value)
                                    : "";
        table.add_row({format_bytes(p.bytes), value(s.median), value(s.mean), value(s.max), c.unit,
                       pct, std::to_string(s.count), p.stopped_by});
      } else {
        table.add_row({format_bytes(p.bytes), value(s.min), value(s.median), value(s.p99),
                       value(s.max), c.unit, std::to_string(s.count), p.stopped_by});
      }
    }
    table.print(m_table);
  }
  std::size_t ok = 0, skipped = 0, failed = 0;
  for (const auto& c : file.results)
    (c.status == case_status::ok ? ok : c.status == case_status::skipped ? skipped : failed)++;
  fmt::print(m_table, "\n# {} cases: {} ok, {} skipped, {} failed; run {}\n", file.results.size(),
             ok, skipped, failed, to_string(file.run.status));
  std::fflush(m_table);
}

}  // namespace gpubench::core

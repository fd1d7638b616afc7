#include "reports/views/view_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "reports/model/cpu_cost.hpp"
#include "reports/model/text_format.hpp"
#include "reports/views/chart_spread.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

bool cpu_detail(const std::string& key) {
  return (key.starts_with("machine_cpu_") || key.starts_with("thread_cpu_")) &&
         key != "machine_cpu_seconds_per_gb";
}

std::vector<std::string> extra_keys(const std::vector<case_ref>& cases) {
  std::vector<std::string> keys;
  for (const auto& c : cases)
    for (const auto& p : c.result->points)
      for (const auto& [key, value] : p.extra.items())
        // min_samples and min_iterations are said in the samples column (a point cut short),
        // not columns; the CPU seconds of each end behind the per-GB costs stay in the file
        // and the CSV.
        if (value.is_number() && key != "min_samples" && key != "min_iterations" &&
            !cpu_detail(key) && std::find(keys.begin(), keys.end(), key) == keys.end())
          keys.push_back(key);
  return keys;
}

std::string extra_header(const std::string& key) {
  if (key == "cpu_seconds_per_gb") return "thread CPU s/GB";
  if (key == "machine_cpu_seconds_per_gb") return "machine CPU s/GB";
  if (key == "algbw") return "algbw (GB/s)";
  if (key == "busbw") return "busbw (GB/s)";
  if (key == "gbit_per_s") return "Gbit/s";
  if (key == "message_rate_mpps") return "Mmsg/s";
  if (key == "messages_per_sample") return "msgs/sample";
  // Unknown extras keep their name, with spaces so a narrow column can wrap it.
  std::string out = key;
  for (char& c : out)
    if (c == '_') c = ' ';
  return out;
}

double percent_of_peak(const core::case_result& c, double value) {
  if (!c.peak || c.peak->unit != c.unit || !(c.peak->value > 0)) return std::nan("");
  return value / c.peak->value * 100.0;
}

bool any_peak(const std::vector<case_ref>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const case_ref& c) {
    return c.result->peak && c.result->peak->unit == c.result->unit;
  });
}

}  // namespace

std::string samples_text(const core::point_result& p) {
  std::string n = std::to_string(p.stats.count);
  auto asked = [&p](const char* key) -> long long {
    const auto it = p.extra.find(key);
    return it != p.extra.end() && it->is_number() ? it->get<long long>() : -1;
  };
  if (const long long rule = asked("min_samples"); rule >= 0)
    n += " (short: the rule asks " + std::to_string(rule) + ")";
  // Fewer operations per sample than the method's minimum (a sample had to end sooner).
  if (const long long ops = asked("min_iterations"); ops >= 0)
    n += " (cut: under " + std::to_string(ops) + " operations per sample)";
  return n;
}

table point_table(const std::vector<case_ref>& cases) {
  table t;
  if (cases.empty()) return t;
  const auto& first = *cases.front().result;
  const bool latency = first.better == "lower";
  const std::string u = " (" + first.unit + ")";
  const auto extras = extra_keys(cases);
  const bool peaks = !latency && any_peak(cases);
  t.caption = with_shared(
      first.metric + " per message size, from the statistics in the result file", cases);
  t.header = {"variant", "size"};
  if (latency) {
    for (const char* h : {"p50", "p90", "p99", "max"})
      t.header.push_back(h + u);
  } else {
    for (const char* h : {"median", "best", "min"})
      t.header.push_back(h + u);
    t.header.push_back("cv %");
  }
  t.header.push_back("samples");
  if (peaks) t.header.push_back("% of line rate");
  for (const auto& key : extras)
    t.header.push_back(extra_header(key));
  t.numeric.assign(t.header.size(), true);
  t.numeric[0] = false;
  for (const auto& c : cases) {
    for (const auto& p : c.result->points) {
      const auto& s = p.stats;
      std::vector<std::string> row = {c.label, p.bytes ? format_size(p.bytes) : "-"};
      if (latency) {
        for (double v : {s.median, s.p90, s.p99, s.max})
          row.push_back(format_value(v));
      } else {
        for (double v : {s.median, s.max, s.min})
          row.push_back(format_value(v));
        row.push_back(fmt::format("{:.1f}", s.cv * 100.0));
      }
      row.push_back(samples_text(p));
      if (peaks) {
        const double pct = percent_of_peak(*c.result, s.median);
        row.push_back(std::isfinite(pct) ? fmt::format("{:.1f} %", pct) : "-");
      }
      for (const auto& key : extras)
        row.push_back(format_value(extra_value(p, key)));
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

table summary_table(const std::vector<case_ref>& cases) {
  table t;
  if (cases.empty()) return t;
  const auto& first = *cases.front().result;
  const bool latency = first.better == "lower";
  const std::string u = " (" + first.unit + ")";
  const bool peaks = !latency && any_peak(cases);
  // CPU cost where the file has it: at the size of the row's figure (smallest for latency).
  const bool cpu = std::any_of(cases.begin(), cases.end(), [&](const case_ref& c) {
    const auto* p = latency ? smallest_point(*c.result) : largest_point(*c.result);
    return p && std::isfinite(cpu_cost_of(*p).seconds_per_gb);
  });
  if (latency) {
    t.caption = with_shared("p50 and p99 at the smallest and p50 at the largest size", cases);
    t.header = {"variant", "small size", "p50" + u, "p99" + u, "large size", "p50" + u};
  } else {
    t.caption = with_shared("Median at the largest size", cases);
    t.header = {"variant", "size", "median" + u};
    if (peaks) t.header.push_back("% of line rate");
  }
  if (cpu) t.header.push_back("CPU s/GB");
  t.numeric.assign(t.header.size(), true);
  t.numeric[0] = false;
  for (const auto& c : cases) {
    const auto* big = largest_point(*c.result);
    const auto* small = smallest_point(*c.result);
    if (!big || !small) continue;
    auto size = [](const core::point_result* p) { return p->bytes ? format_size(p->bytes) : "-"; };
    std::vector<std::string> row = {c.label};
    if (latency) {
      row.insert(row.end(),
                 {size(small), format_value(small->stats.median), format_value(small->stats.p99),
                  size(big), format_value(big->stats.median)});
    } else {
      row.insert(row.end(), {size(big), format_value(big->stats.median)});
      if (peaks) {
        const double pct = percent_of_peak(*c.result, big->stats.median);
        row.push_back(std::isfinite(pct) ? fmt::format("{:.1f} %", pct) : "-");
      }
    }
    if (cpu) {
      // The whole machine at both ends; a result without it shows its threads' own, marked.
      const auto cost = cpu_cost_of(latency ? *small : *big);
      row.push_back(format_value(cost.seconds_per_gb) +
                    (cost.basis == cpu_basis::threads && std::isfinite(cost.seconds_per_gb)
                         ? " (threads)"
                         : ""));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

double plotted_value(const core::point_result& p, const std::string& extra_key) {
  return extra_key.empty() ? p.stats.median : extra_value(p, extra_key);
}

bool has_size_axis(const std::vector<case_ref>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const case_ref& c) {
    std::set<std::uint64_t> sizes;
    for (const auto& p : c.result->points)
      if (p.bytes > 0) sizes.insert(p.bytes);
    return sizes.size() >= 2;
  });
}

line_chart size_chart(const std::string& title, const std::vector<case_ref>& cases,
                      const std::vector<const reference_figure*>& refs,
                      const std::string& extra_key, const std::string& y_label) {
  line_chart chart;
  chart.title = title;
  if (cases.empty()) return chart;
  const auto& first = *cases.front().result;
  const bool latency = first.better == "lower" && extra_key.empty();
  chart.y_label = y_label.empty() ? first.metric + " (" + first.unit + ")" : y_label;
  double lo = INFINITY, hi = 0;
  // Line rate -> the one series it belongs to (drawn in its colour), or -1 when shared.
  std::map<std::pair<double, std::string>, int> peaks;
  for (const auto& c : cases) {
    chart_series s;
    s.name = c.label;
    s.has_band = latency;
    for (const auto& p : c.result->points) {
      const double y = plotted_value(p, extra_key);
      if (p.bytes == 0 || !std::isfinite(y)) continue;
      s.points.push_back({static_cast<double>(p.bytes), y, p.stats.median, p.stats.p99});
      if (y > 0) lo = std::min(lo, y);
      hi = std::max(hi, latency ? p.stats.p99 : y);
    }
    const int index = s.points.empty() ? -1 : static_cast<int>(chart.series.size());
    if (!s.points.empty()) chart.series.push_back(std::move(s));
    if (c.result->peak && c.result->peak->unit == c.result->unit && extra_key.empty()) {
      const auto [it, fresh] =
          peaks.emplace(std::make_pair(c.result->peak->value, c.result->peak->basis), index);
      if (!fresh) it->second = -1;
    }
  }
  // Latency spans decades from small to large messages; a log axis keeps both ends readable.
  chart.log_y = latency && std::isfinite(lo) && hi / lo > 30;
  const bool spread = chart.series.size() > max_drawn_series;
  if (spread) chart.series = spread_series(chart.series, first.better == "higher");
  for (const auto& [peak, series] : peaks)
    chart.lines.push_back({peak.first, "line rate: " + peak.second, false, spread ? -1 : series});
  for (const auto* r : refs)
    if (r->unit == first.unit)
      chart.lines.push_back(
          {(r->low + r->high) / 2, "reference: " + r->what + ", " + figure_text(*r), true, -1});
  return chart;
}

table path_table(const std::vector<case_ref>& cases) {
  table t;
  t.caption = "Path of each variant (as recorded by the benchmark) and its line rate";
  t.header = {"variant", "path", "line rate"};
  t.numeric = {false, false, false};
  for (const auto& c : cases) {
    std::string path;
    for (const auto& [key, value] : c.result->context.items())
      path += (path.empty() ? "" : ", ") + key + ": " + param_text(value);
    std::string rate = "-";
    if (c.result->peak)
      rate = format_value(c.result->peak->value) + " " + c.result->peak->unit + " (" +
             c.result->peak->basis + ")";
    if (path.empty() && rate == "-") continue;
    t.rows.push_back({c.label, path.empty() ? "-" : path, rate});
  }
  return t;
}

std::vector<const reference_figure*> matching_references(const std::vector<case_ref>& cases,
                                                         const reference_set& refs) {
  std::vector<const reference_figure*> out;
  for (const auto& c : cases)
    for (const auto* f : refs.matching(*c.result, c.run->file.system))
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  return out;
}

table reference_table(const std::vector<const reference_figure*>& refs) {
  table t;
  t.caption = "Published reference figures for this hardware (measured elsewhere, not by this run)";
  t.header = {"reference", "figure", "source"};
  t.numeric = {false, true, false};
  for (const auto* r : refs)
    t.rows.push_back({r->what, figure_text(*r), r->source});
  return t;
}

std::vector<note> not_measured_notes(const std::vector<case_ref>& cases) {
  // One line per status and reason, naming its variants: six collectives skipped for want of
  // a GPU are one line each, not a table each.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& c : cases) {
    if (c.result->status == core::case_status::ok) continue;
    const std::string why = core::to_string(c.result->status) + ": " + c.result->reason;
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == why; });
    if (it == groups.end()) {
      groups.push_back({why, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(c.label);
  }
  std::vector<note> out;
  for (const auto& [why, labels] : groups) {
    std::string names;
    for (const auto& l : labels)
      names += (names.empty() ? "" : "; ") + l;
    out.push_back({"Not measured: " + names + " (" + why + ")"});
  }
  return out;
}

void append_common_blocks(section& s, const std::vector<case_ref>& all,
                          const std::vector<const reference_figure*>& refs) {
  if (!refs.empty()) s.blocks.emplace_back(reference_table(refs));
  for (auto& n : not_measured_notes(all))
    s.blocks.emplace_back(std::move(n));
}

}  // namespace gpubench::reports::views

#include "reports/views/trend_section.hpp"

#include <fmt/format.h>

#include "reports/model/text_format.hpp"

namespace gpubench::reports::views {

namespace {

std::string percent(double change) {
  return fmt::format("{:+.1f} %", change * 100);
}

model::line_chart chart_of(const history::series_analysis& a) {
  const auto& s = a.data;
  model::line_chart c;
  c.title = s.key;
  c.x_label = "run (in the order the runs started)";
  c.y_label = s.metric + " (" + s.unit + ")";
  c.x_axis = model::x_scale::runs;
  model::chart_series line;
  line.name = fmt::format("median of each run, {} is better", s.better);
  for (std::size_t i = 0; i < s.points.size(); ++i)
    line.points.push_back({static_cast<double>(i + 1), s.points[i].value, 0, 0});
  c.series.push_back(std::move(line));
  for (const auto& ch : a.changes)
    c.marks.push_back({static_cast<double>(ch.index + 1),
                       fmt::format("change at run {}: {} -> {} {} ({}), p = {:.2g}", ch.index + 1,
                                   model::format_value(ch.at.before_median),
                                   model::format_value(ch.at.after_median), s.unit,
                                   percent(ch.at.change), ch.at.p),
                       false});
  for (const auto& e : a.events)
    c.marks.push_back(
        {static_cast<double>(e.index + 1),
         fmt::format("fingerprint changed at run {}{}{}", e.index + 1,
                     e.changes.empty() ? "" : ": ", fmt::format("{}", fmt::join(e.changes, "; "))),
         true});
  return c;
}

}  // namespace

model::section trend_section(const std::vector<history::series_analysis>& found,
                             const trend_options& options) {
  model::section sec;
  sec.title = "Trends in the results store";
  std::size_t changed = 0, events = 0;
  for (const auto& a : found) {
    changed += a.changes.empty() ? 0 : 1;
    events += a.events.empty() ? 0 : 1;
  }
  sec.blocks.push_back(model::paragraph{fmt::format(
      "{} series in {}: {} changed, {} with a fingerprint event. A change is found by E-divisive "
      "means and judged by a t-test, Benjamini-Hochberg over all series (docs/history.md); a "
      "fingerprint event (what must not change under a series: kernel, drivers, firmware, ...) "
      "starts a new segment and is never counted as a change.",
      found.size(), options.store, changed, events)});
  model::table t;
  t.caption = "Changes found";
  t.header = {"series", "run", "run id", "before", "after", "change", "p"};
  t.numeric = {false, true, false, true, true, true, true};
  std::size_t charts = 0, wanted_charts = 0;
  for (const auto& a : found) {
    for (const auto& ch : a.changes)
      t.rows.push_back({a.data.key, std::to_string(ch.index + 1), a.data.points[ch.index].run_id,
                        model::format_value(ch.at.before_median) + " " + a.data.unit,
                        model::format_value(ch.at.after_median) + " " + a.data.unit,
                        percent(ch.at.change), fmt::format("{:.2g}", ch.at.p)});
    const bool wanted = options.every_series || !a.changes.empty() || !a.events.empty();
    wanted_charts += wanted ? 1 : 0;
    if (wanted && charts < options.max_charts) {
      sec.blocks.push_back(chart_of(a));
      ++charts;
    }
  }
  if (!t.rows.empty())
    sec.blocks.insert(sec.blocks.begin() + 1, t);
  else
    sec.blocks.push_back(model::note{"No series changed."});
  if (wanted_charts > charts)
    sec.blocks.push_back(model::note{fmt::format(
        "Charts are drawn for the first {} of {} series only.", charts, wanted_charts)});
  return sec;
}

}  // namespace gpubench::reports::views

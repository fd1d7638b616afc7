// gpubench history [--store S] [--filter REGEX] [--since DATE] [--format text|json]: the
// changes in each series of the store (E-divisive means and a t-test, Benjamini-Hochberg over
// the query) and the fingerprint events that cut them into segments (docs/history.md).
#include <regex>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/history_options.hpp"
#include "cli/store_location.hpp"
#include "core/errors.hpp"
#include "history/analysis.hpp"
#include "history/store.hpp"

namespace gpubench::cli {

namespace {

struct history_options {
  std::string store = default_store;
  std::string filter;
  std::string since;
  std::string format = "text";
  bool all = false;
  change_cli_options change;
};

std::string percent(double change) {
  return fmt::format("{:+.1f} %", change * 100);
}

nlohmann::json to_json(const history::series_analysis& a) {
  const auto& s = a.data;
  nlohmann::json changes = nlohmann::json::array(), events = nlohmann::json::array();
  for (const auto& c : a.changes)
    changes.push_back({{"run", c.index + 1},
                       {"run_id", s.points[c.index].run_id},
                       {"started", s.points[c.index].started},
                       {"before", c.at.before_median},
                       {"after", c.at.after_median},
                       {"change", c.at.change},
                       {"p", c.at.p}});
  for (const auto& e : a.events)
    events.push_back({{"run", e.index + 1},
                      {"run_id", s.points[e.index].run_id},
                      {"started", s.points[e.index].started},
                      {"changes", e.changes}});
  return {{"series", s.key},    {"benchmark", s.benchmark}, {"params", s.params},
          {"bytes", s.bytes},   {"host", s.host},           {"metric", s.metric},
          {"unit", s.unit},     {"better", s.better},       {"runs", s.points.size()},
          {"changes", changes}, {"events", events}};
}

void print_text(const history::series_analysis& a) {
  const auto& s = a.data;
  fmt::print("{} ({}, {} is better): {} runs\n", s.key, s.unit, s.better, s.points.size());
  for (const auto& e : a.events)
    fmt::print("  event  at run {} ({}, {}): fingerprint changed{}{}\n", e.index + 1,
               s.points[e.index].run_id, s.points[e.index].started, e.changes.empty() ? "" : ": ",
               fmt::join(e.changes, "; "));
  for (const auto& c : a.changes)
    fmt::print("  change at run {} ({}, {}): median {:.4g} -> {:.4g} {} ({}), p = {:.2g}\n",
               c.index + 1, s.points[c.index].run_id, s.points[c.index].started, c.at.before_median,
               c.at.after_median, s.unit, percent(c.at.change), c.at.p);
}

int run_history(const history_options& o) {
  if (o.format != "text" && o.format != "json")
    throw core::usage_error(fmt::format("--format: '{}' is not text or json", o.format));
  if (!o.since.empty() && !std::regex_match(o.since, std::regex(R"(\d{4}-\d\d(-\d\d(T.*)?)?)")))
    throw core::usage_error(fmt::format(
        "--since: '{}' is no date (2026-11-01, or RFC 3339: 2026-11-01T12:00:00Z)", o.since));
  const auto options = analysis_options_of(o.change);
  require_store(o.store);
  const history::store store(o.store);
  const auto found =
      history::analyse(store.load({o.filter, o.since}), store.fingerprints(), options);
  std::size_t changed = 0, changes = 0, events = 0;
  for (const auto& a : found) {
    changes += a.changes.size();
    events += a.events.size();
    changed += a.changes.empty() ? 0 : 1;
  }
  if (o.format == "json") {
    nlohmann::json series = nlohmann::json::array();
    for (const auto& a : found)
      if (o.all || !a.changes.empty() || !a.events.empty()) series.push_back(to_json(a));
    const nlohmann::json out = {{"schema", "gpubench.history/1"},
                                {"store", store.describe()},
                                {"method",
                                 {{"max_p", options.change.max_p},
                                  {"min_effect", options.change.min_effect},
                                  {"min_segment", options.change.min_segment},
                                  {"fdr", options.fdr}}},
                                {"series_count", found.size()},
                                {"series", series}};
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  fmt::print("# {}: {} series, {} runs; {} change{} in {} series, {} fingerprint event{}\n",
             store.describe(), found.size(), store.run_count(), changes, changes == 1 ? "" : "s",
             changed, events, events == 1 ? "" : "s");
  for (const auto& a : found)
    if (o.all || !a.changes.empty() || !a.events.empty()) print_text(a);
  return 0;
}

}  // namespace

command setup_history(CLI::App& app, const environment&) {
  auto* sub = app.add_subcommand(
      "history", "Find the changes in every series of the results store (docs/history.md)");
  auto o = std::make_shared<history_options>();
  add_store_option(*sub, o->store);
  sub->add_option("--filter", o->filter,
                  "Only series whose key (benchmark {params} @bytes on host) matches this "
                  "regular expression");
  sub->add_option("--since", o->since, "Only runs started on or after this date (2026-11-01)");
  sub->add_option("--format", o->format, "text or json (default text)");
  sub->add_flag("--all", o->all, "List every series, also those without a change or event");
  add_change_options(*sub, o->change);
  return {sub, [o] { return run_history(*o); }};
}

}  // namespace gpubench::cli

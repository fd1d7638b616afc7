#include "cli/compare_history.hpp"

#include <map>

#include <fmt/format.h>

#include "history/analysis.hpp"
#include "history/series_key.hpp"
#include "history/store.hpp"

namespace gpubench::cli {

namespace {

using reports::compare::verdict;

verdict verdict_of(history::gate_outcome o) {
  switch (o) {
    case history::gate_outcome::no_history:
      return verdict::added;
    case history::gate_outcome::too_short:
    case history::gate_outcome::noisy:
      return verdict::noisy;
    case history::gate_outcome::same:
      return verdict::same;
    case history::gate_outcome::better:
      return verdict::faster;
    case history::gate_outcome::worse:
      return verdict::slower;
  }
  return verdict::noisy;
}

std::string note_of(const history::gate_judgement& j, const history_gate_options& o) {
  switch (j.outcome) {
    case history::gate_outcome::no_history:
      return "no history: a new series, or a new segment (its fingerprint changed)";
    case history::gate_outcome::too_short:
      return fmt::format("history too short: {} run{} in its segment, {} needed", j.history,
                         j.history == 1 ? "" : "s", o.min_history);
    default:
      return fmt::format("against {} runs, prediction t-test p={:.2g}", j.history, *j.p);
  }
}

}  // namespace

reports::compare::comparison compare_with_history(const core::result_file& fresh,
                                                  const std::string& new_name,
                                                  const history_gate_options& options) {
  const history::store store(options.store);
  std::map<std::string, history::series> by_key;
  for (auto& s : store.load())
    by_key.emplace(s.key, std::move(s));
  const std::string own_run = history::stored_run_id(fresh);
  const std::string host = fresh.system.is_object() ? fresh.system.value("host", "") : "";

  reports::compare::comparison c;
  c.base_name = "history in " + store.describe();
  c.new_name = new_name;
  c.options.threshold = options.threshold;
  c.options.alpha = options.alpha;
  std::size_t short_history = 0;
  for (const auto& cs : fresh.results) {
    if (cs.status != core::case_status::ok) {
      // A case its series measured before and NEW did not: lost, as compare says it.
      for (const auto& [key, s] : by_key)
        if (s.benchmark == cs.benchmark && s.params == cs.params && s.host == host) {
          reports::compare::comparison_row row;
          row.benchmark = cs.benchmark;
          row.params = cs.params;
          row.metric = s.metric;
          row.unit = s.unit;
          row.better = s.better;
          row.result = verdict::lost;
          row.regression = true;
          row.note = fmt::format("NEW {}: {}", core::to_string(cs.status), cs.reason);
          c.rows.push_back(std::move(row));
          break;
        }
      continue;
    }
    const std::string fingerprint =
        history::fingerprint_id(history::fingerprint_detail(fresh.system, cs.kind));
    for (const auto& p : cs.points) {
      reports::compare::comparison_row row;
      row.benchmark = cs.benchmark;
      row.params = cs.params;
      row.bytes = p.bytes;
      row.metric = cs.metric;
      row.unit = cs.unit;
      row.better = cs.better;
      row.new_value = p.stats.median;
      row.threshold = options.threshold.for_benchmark(cs.benchmark);
      std::vector<double> segment;
      if (auto it = by_key.find(history::series_key(cs.benchmark, cs.params, p.bytes, host));
          it != by_key.end()) {
        auto& points = it->second.points;
        std::erase_if(points, [&](const auto& x) { return x.run_id == own_run; });
        segment = history::latest_segment(it->second, fingerprint, {});
      }
      history::gate_options gate{row.threshold, options.alpha, options.min_history};
      const auto j = history::judge_point(segment, p.stats.median, cs.better == "higher", gate);
      if (j.median) {
        row.base_value = j.median;
        if (*j.median > 0) row.ratio = p.stats.median / *j.median;
      }
      row.change = j.change;
      row.result = verdict_of(j.outcome);
      row.regression = row.result == verdict::slower;
      row.decided_by = j.p ? "history" : "";
      row.note = note_of(j, options);
      if (j.outcome == history::gate_outcome::too_short) ++short_history;
      c.rows.push_back(std::move(row));
    }
  }
  if (short_history > 0)
    c.warnings.push_back(fmt::format(
        "{} point{} of NEW {} too little history to be judged (fewer than {} runs in the "
        "latest segment of the series)",
        short_history, short_history == 1 ? "" : "s", short_history == 1 ? "has" : "have",
        options.min_history));
  if (fresh.run.status != core::run_status::complete)
    c.warnings.push_back(fmt::format("NEW run is {}", core::to_string(fresh.run.status)));
  return c;
}

}  // namespace gpubench::cli

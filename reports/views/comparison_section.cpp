#include "reports/views/comparison_section.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/parallel_for.hpp"
#include "reports/compare/cells.hpp"
#include "reports/compare/comparison.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

std::string better_text(const compare::comparison_row& row, const std::string& base,
                        const std::string& fresh) {
  switch (row.result) {
    case compare::verdict::faster:
      return fresh;
    case compare::verdict::slower:
      return base;
    case compare::verdict::same:
      return fmt::format("neither (within {:g}%)", row.threshold * 100);
    case compare::verdict::noisy:
      return "unclear (noise)";
    default:
      return "-";
  }
}

// At most this many changed points of a pair are listed; gpubench compare lists every one.
constexpr std::size_t listed_changes = 15;

bool changed(const compare::comparison_row& row) {
  using compare::verdict;
  return row.result == verdict::slower || row.result == verdict::faster ||
         row.result == verdict::lost;
}

// Regressions first (lost, then slower), then improvements; the larger change first.
bool listed_before(const compare::comparison_row& a, const compare::comparison_row& b) {
  auto rank = [](const compare::comparison_row& r) {
    return r.result == compare::verdict::lost ? 0 : r.result == compare::verdict::slower ? 1 : 2;
  };
  auto size = [](const compare::comparison_row& r) {
    return r.ratio && *r.ratio > 0 ? std::fabs(std::log(*r.ratio)) : 0.0;
  };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  return size(a) > size(b);
}

compare::comparison compare_pair(const run_input& base, const run_input& fresh) {
  return compare::compare_results(base.file, fresh.file, compare::compare_options{},
                                  base.path.string(), fresh.path.string());
}

// One pair: its verdict counts, the points that changed (not those within the threshold or
// too noisy to call), and per benchmark the points only one of the two measured.
void add_pair(section& s, const run_input& base, const run_input& fresh,
              const compare::comparison& c) {
  table side;
  side.caption = "What changed from " + base.label + " to " + fresh.label +
                 ", aligned by benchmark, parameters and message size (ratio = " + fresh.label +
                 " / " + base.label + ")";
  side.header = {"benchmark", "parameters", "size",    base.label, fresh.label,
                 "ratio",     "better",     "verdict", "note"};
  side.numeric = {false, false, true, true, true, true, false, false, false};
  // Cases only one run has are counted per benchmark, not listed point by point.
  std::map<std::string, std::pair<std::size_t, std::size_t>> one_sided;
  std::vector<const compare::comparison_row*> rows;
  for (const auto& row : c.rows) {
    if (row.result == compare::verdict::added) ++one_sided[row.benchmark].second;
    if (row.result == compare::verdict::removed) ++one_sided[row.benchmark].first;
    if (changed(row)) rows.push_back(&row);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* a, const auto* b) { return listed_before(*a, *b); });
  for (std::size_t i = 0; i < rows.size() && i < listed_changes; ++i) {
    const auto& row = *rows[i];
    side.rows.push_back(
        {row.benchmark, params_text(row.params), row.bytes ? format_size(*row.bytes) : "-",
         compare::cells::value(row.base_value, row.unit),
         compare::cells::value(row.new_value, row.unit), row.ratio ? format_ratio(*row.ratio) : "-",
         better_text(row, base.label, fresh.label), compare::to_string(row.result), row.note});
  }
  s.blocks.emplace_back(
      paragraph{fresh.label + " against " + base.label + ": " + compare::cells::counts(c) + "."});
  if (!side.rows.empty()) s.blocks.emplace_back(std::move(side));
  if (rows.size() > listed_changes)
    s.blocks.emplace_back(note{fmt::format(
        "{} more changed points, the smaller changes: gpubench compare {} {} lists every one.",
        rows.size() - listed_changes, base.path.filename().string(),
        fresh.path.filename().string())});
  if (!one_sided.empty()) {
    table only;
    only.caption = "Points measured in only one of the two runs";
    only.header = {"benchmark", "only in " + base.label, "only in " + fresh.label};
    only.numeric = {false, true, true};
    for (const auto& [id, counts] : one_sided)
      only.rows.push_back({id, std::to_string(counts.first), std::to_string(counts.second)});
    s.blocks.emplace_back(std::move(only));
  }
}

// Many runs: one row per later run, its verdict counts against the first.
table overview_table(const std::vector<run_input>& runs,
                     const std::vector<compare::comparison>& pairs) {
  using compare::verdict;
  table t;
  t.caption = "Each run against " + runs.front().label + ": points by verdict";
  t.header = {"run", "slower", "lost", "faster", "noisy", "same", "only in one"};
  t.numeric = {false, true, true, true, true, true, true};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::map<verdict, std::size_t> n;
    for (const auto& row : pairs[i].rows)
      ++n[row.result];
    t.rows.push_back({runs[i + 1].label, std::to_string(n[verdict::slower]),
                      std::to_string(n[verdict::lost]), std::to_string(n[verdict::faster]),
                      std::to_string(n[verdict::noisy]), std::to_string(n[verdict::same]),
                      std::to_string(n[verdict::added] + n[verdict::removed])});
  }
  return t;
}

}  // namespace

std::optional<section> comparison_section(const std::vector<run_input>& runs) {
  if (runs.size() < 2) return std::nullopt;
  const compare::compare_options options;  // gpubench compare's defaults
  section s{"Comparison across runs", 1, {}};
  s.blocks.emplace_back(paragraph{fmt::format(
      "Each run is set against the first, {}, with the comparison model of gpubench compare: "
      "medians side by side, the ratio, and a verdict that weighs the change against a {:g}% "
      "threshold and a Mann-Whitney U test on the raw samples (alpha {:g}); a point of one "
      "value (an imported log) by the sign test across its sweep, or alone when it moved by "
      "{:g}x or more. Listed are the points that changed (slower, lost, faster), at most {} a "
      "run; points within the threshold or too noisy to call are counted.",
      runs.front().label, options.threshold.global * 100, options.alpha,
      options.single_value_factor, listed_changes)});
  // Each pair's U tests on a core of its own: most of a many-run report's time.
  std::vector<compare::comparison> pairs(runs.size() - 1);
  core::parallel_for(pairs.size(),
                     [&](std::size_t i) { pairs[i] = compare_pair(runs.front(), runs[i + 1]); });
  if (runs.size() > side_by_side_runs) s.blocks.emplace_back(overview_table(runs, pairs));
  for (std::size_t i = 1; i < runs.size(); ++i)
    add_pair(s, runs.front(), runs[i], pairs[i - 1]);
  return s;
}

}  // namespace gpubench::reports::views

#include "reports/views/comparison_section.hpp"

#include <map>

#include <fmt/format.h>

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

void add_pair(section& s, const run_input& base, const run_input& fresh,
              const compare::compare_options& options) {
  const auto c = compare::compare_results(base.file, fresh.file, options, base.path.string(),
                                          fresh.path.string());
  table side;
  side.caption = fresh.label + " against " + base.label +
                 ", aligned by benchmark, parameters "
                 "and message size (ratio = " +
                 fresh.label + " / " + base.label + ")";
  side.header = {"benchmark", "parameters", "size",    base.label, fresh.label,
                 "ratio",     "better",     "verdict", "note"};
  side.numeric = {false, false, true, true, true, true, false, false, false};
  // Cases only one run has are counted per benchmark, not listed point by point.
  std::map<std::string, std::pair<std::size_t, std::size_t>> one_sided;
  for (const auto& row : c.rows) {
    if (row.result == compare::verdict::added) {
      ++one_sided[row.benchmark].second;
      continue;
    }
    if (row.result == compare::verdict::removed) {
      ++one_sided[row.benchmark].first;
      continue;
    }
    side.rows.push_back(
        {row.benchmark, params_text(row.params), row.bytes ? format_size(*row.bytes) : "-",
         compare::cells::value(row.base_value, row.unit),
         compare::cells::value(row.new_value, row.unit), row.ratio ? format_ratio(*row.ratio) : "-",
         better_text(row, base.label, fresh.label), compare::to_string(row.result), row.note});
  }
  s.blocks.emplace_back(
      paragraph{fresh.label + " against " + base.label + ": " + compare::cells::counts(c) + "."});
  if (side.rows.empty())
    s.blocks.emplace_back(note{"No benchmark case was measured in both " + base.label + " and " +
                               fresh.label + ", so nothing is set side by side."});
  else
    s.blocks.emplace_back(std::move(side));
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

}  // namespace

std::optional<section> comparison_section(const std::vector<run_input>& runs) {
  if (runs.size() < 2) return std::nullopt;
  const compare::compare_options options;  // gpubench compare's defaults
  section s{"Comparison across runs", 1, {}};
  s.blocks.emplace_back(paragraph{fmt::format(
      "Each run is set against the first, {}, with the comparison model of gpubench compare: "
      "medians side by side, the ratio, and a verdict that weighs the change against a {:g}% "
      "threshold and a Mann-Whitney U test on the raw samples (alpha {:g}).",
      runs.front().label, options.threshold.global * 100, options.alpha)});
  for (std::size_t i = 1; i < runs.size(); ++i)
    add_pair(s, runs.front(), runs[i], options);
  return s;
}

}  // namespace gpubench::reports::views

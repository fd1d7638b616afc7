#include "reports/page_one/page_one.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/text_format.hpp"
#include "reports/page_one/band_checks.hpp"
#include "reports/page_one/headline_table.hpp"
#include "reports/page_one/machine_diagram.hpp"
#include "reports/page_one/projection/projection.hpp"
#include "reports/views/summary_section.hpp"

namespace gpubench::reports::page_one {

using namespace model;
using namespace views;

namespace {

std::string system_value(const nlohmann::json& sys, const char* key) {
  return sys.contains(key) ? system_value_text(sys.at(key)) : "";
}

}  // namespace

table findings_table(const std::vector<findings::finding>& found) {
  table t;
  t.caption = "Findings (the rules and their thresholds: docs/report.md)";
  t.header = {"severity", "finding", "evidence", "what to check"};
  t.numeric = {false, false, false, false};
  for (const auto& f : found)
    t.rows.push_back({findings::to_string(f.level),
                      f.subject.empty() ? f.title : f.subject + ": " + f.title, f.evidence,
                      f.check});
  return t;
}

std::string system_line(const run_input& run) {
  const auto& sys = run.file.system;
  std::string out = system_value(sys, "host");
  auto add = [&out](const std::string& what, const std::string& value) {
    if (value.empty() || value == "none" || value == "-") return;
    out += (out.empty() ? "" : "; ") + what + value;
  };
  if (sys.contains("cpu") && sys.at("cpu").is_object() && sys.at("cpu").contains("model"))
    add("CPU: ", param_text(sys.at("cpu").at("model")));
  add("NUMA nodes: ", system_value(sys, "numa_nodes"));
  add("virtualization: ", system_value(sys, "virtualization"));
  add("GPUs: ", system_value(sys, "gpus"));
  add("RDMA: ", system_value(sys, "rdma_devices"));
  return out;
}

// The findings of several runs in one table: a finding that several runs share is one row
// naming them, with the evidence of the first of them; problems first.
table findings_across_runs(const std::vector<run_input>& runs) {
  struct merged {
    findings::finding first;
    std::vector<std::string> runs;
  };
  std::vector<merged> rows;
  for (const auto& run : runs)
    for (auto& f : findings::evaluate(run)) {
      auto it = std::find_if(rows.begin(), rows.end(), [&](const merged& m) {
        return m.first.rule == f.rule && m.first.subject == f.subject && m.first.title == f.title;
      });
      if (it == rows.end())
        rows.push_back({std::move(f), {run.label}});
      else
        it->runs.push_back(run.label);
    }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const merged& a, const merged& b) { return a.first.level < b.first.level; });
  table t;
  t.caption = "Findings of the " + std::to_string(runs.size()) +
              " runs (the rules and their thresholds: docs/report.md); the evidence is the first "
              "named run's";
  t.header = {"severity", "finding", "runs", "evidence", "what to check"};
  t.numeric.assign(t.header.size(), false);
  for (const auto& m : rows) {
    const auto& f = m.first;
    std::string which = m.runs.size() == runs.size() ? "all " + std::to_string(runs.size())
                                                     : fmt::format("{}", fmt::join(m.runs, ", "));
    t.rows.push_back({findings::to_string(f.level),
                      f.subject.empty() ? f.title : f.subject + ": " + f.title, which, f.evidence,
                      f.check});
  }
  return t;
}

section run_story(const run_input& run, const reference_set& refs, const report_options& options) {
  section s{"The interconnect story: " + run.label, 1, {}};
  s.blocks.emplace_back(paragraph{system_line(run)});
  s.blocks.emplace_back(machine_diagram(run));
  if (auto t = headline_table(run, refs); !t.rows.empty())
    s.blocks.emplace_back(std::move(t));
  else
    s.blocks.emplace_back(note{"Nothing was measured in this run, so there is no headline."});
  // "Is it normal?": only where a published band fits the hardware; silent otherwise.
  const auto bands = band_table::builtin();
  if (auto t = bands_table(band_checks(run, bands)); !t.rows.empty())
    s.blocks.emplace_back(std::move(t));
  const auto found = findings::evaluate(run);
  if (found.empty())
    s.blocks.emplace_back(paragraph{
        "Findings: none. No rule (docs/report.md) found anything to report in this run."});
  else
    s.blocks.emplace_back(findings_table(found));
  if (auto line = projection::projection_summary(run, options))
    s.blocks.emplace_back(paragraph{std::move(*line)});
  return s;
}

std::vector<section> page_one_sections(const std::vector<run_input>& runs,
                                       const reference_set& refs, const report_options& options) {
  if (runs.size() == 1) {
    auto s = run_story(runs.front(), refs, options);
    s.new_page = true;
    return {std::move(s)};
  }
  // Several runs: page one compares them; each run's own page one is in the appendix.
  section s{"The interconnect story, side by side", 1, {}};
  s.new_page = true;
  s.blocks.emplace_back(paragraph{
      runs.size() <= side_by_side_runs
          ? "Each column is one result file; the figure is the headline figure of each path (the "
            "slowest GPU or GPU pair, the best network case, each collective at the most nodes). "
            "A ratio within 5 % of 1 is not called better or worse. Each run's machine diagram "
            "and headline are in the appendix."
          : "The headline figure of each path (the slowest GPU or GPU pair, the best network "
            "case, each collective at the most nodes) in the first run, and how far it ranged "
            "across all of them. Each run's machine diagram and headline are in the appendix."});
  s.blocks.emplace_back(side_by_side_table(runs));
  if (auto t = findings_across_runs(runs); !t.rows.empty())
    s.blocks.emplace_back(std::move(t));
  else
    s.blocks.emplace_back(paragraph{"Findings: none in any of the runs."});
  return {std::move(s)};
}

}  // namespace gpubench::reports::page_one

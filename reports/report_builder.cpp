#include "reports/report_builder.hpp"

#include "reports/cluster/cluster_report.hpp"
#include "reports/comparison_section.hpp"
#include "reports/projection.hpp"
#include "reports/summary_section.hpp"
#include "reports/views.hpp"

namespace gpubench::reports {

document build_report(const std::vector<run_input>& runs, const reference_set& refs,
                      const report_options& options) {
  document doc;
  doc.title = "gpubench report";
  for (const auto& r : runs)
    doc.subtitle.push_back(r.label + ": suite " + r.file.run.suite + ", " + r.file.run.started +
                           ", " + core::to_string(r.file.run.status) + " (" +
                           r.path.filename().string() + ")");
  doc.sections.push_back(summary_section(runs));
  for (auto& s : cluster::cluster_sections(runs))
    doc.sections.push_back(std::move(s));
  for (auto& s : measurement_sections(runs, refs))
    doc.sections.push_back(std::move(s));
  if (auto s = comparison_section(runs)) doc.sections.push_back(std::move(*s));
  // At the end for now: the page-one layout places it beside the findings.
  if (auto s = projection_section(runs, options)) doc.sections.push_back(std::move(*s));
  return doc;
}

}  // namespace gpubench::reports

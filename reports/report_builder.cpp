#include "reports/report_builder.hpp"

#include "reports/cluster/cluster_report.hpp"
#include "reports/page_one/page_one.hpp"
#include "reports/page_one/projection/projection.hpp"
#include "reports/views/comparison_section.hpp"
#include "reports/views/summary_section.hpp"
#include "reports/views/views.hpp"

namespace gpubench::reports {

using namespace model;

document build_report(const std::vector<run_input>& runs, const reference_set& refs,
                      const report_options& options) {
  document doc;
  doc.title = "gpubench report";
  for (const auto& r : runs) {
    // An imported run's time is when it was read; the tool is what the reader needs to know.
    if (const auto tools = imported_from(r.file); !tools.empty())
      doc.subtitle.push_back(r.label + ": imported from " + tools +
                             " output, the figures as the tool "
                             "printed them (" +
                             r.path.filename().string() + ")");
    else
      doc.subtitle.push_back(r.label + ": suite " + r.file.run.suite + ", " + r.file.run.started +
                             ", " + core::to_string(r.file.run.status) + " (" +
                             r.path.filename().string() + ")");
  }
  for (auto& s : page_one::page_one_sections(runs, refs, options))
    doc.sections.push_back(std::move(s));
  // Many runs: the cluster and projection sections of the first (the comparison covers the
  // others), so the body grows by the comparison, not by a copy of each run.
  std::vector<run_input> first;
  if (runs.size() > side_by_side_runs) first.push_back(runs.front());
  const auto& drawn = first.empty() ? runs : first;
  for (auto& s : cluster::cluster_sections(drawn))
    doc.sections.push_back(std::move(s));
  if (auto s = page_one::projection::projection_section(drawn, options))
    doc.sections.push_back(std::move(*s));
  auto parts = views::measurement_sections(runs, refs);
  for (auto& s : parts.views)
    doc.sections.push_back(std::move(s));
  if (auto s = views::comparison_section(runs)) doc.sections.push_back(std::move(*s));
  auto summary = views::summary_section(runs);
  summary.title = "Appendix A: systems, what ran, what was skipped";
  summary.new_page = true;
  doc.sections.push_back(std::move(summary));
  if (!parts.appendix.empty()) {
    section points{"Appendix B: every point",
                   1,
                   {paragraph{"Every message size of every measured case, with the statistics "
                              "stored in the result files (the CSV output has them at full "
                              "precision), and the path each variant crossed."}}};
    points.new_page = true;
    doc.sections.push_back(std::move(points));
    for (auto& s : parts.appendix)
      doc.sections.push_back(std::move(s));
  }
  if (runs.size() > 1) {
    section stories{"Appendix C: each run's page one",
                    1,
                    {paragraph{"The machine diagram, headline and findings of each run, as a "
                               "report of that run alone shows them."}}};
    stories.new_page = true;
    doc.sections.push_back(std::move(stories));
    for (const auto& run : runs) {
      auto s = page_one::run_story(run, refs, options);
      s.level = 2;
      doc.sections.push_back(std::move(s));
    }
  }
  return doc;
}

}  // namespace gpubench::reports

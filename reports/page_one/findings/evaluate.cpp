// Every rule over one run, problems first; a GPU whose slow host copies a degraded PCIe link
// already explains is not reported a second time as an outlier among its siblings.
#include <algorithm>
#include <set>

#include "reports/page_one/findings/finding.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

std::string to_string(severity s) {
  switch (s) {
    case severity::problem:
      return "problem";
    case severity::warning:
      return "warning";
    case severity::info:
      return "info";
  }
  return "info";
}

std::span<const rule> all_rules() {
#define GPUBENCH_FINDING_RULE_ENTRY(id, function) rule{id, function},
  static constexpr rule table[] = {GPUBENCH_FINDING_RULES(GPUBENCH_FINDING_RULE_ENTRY)};
#undef GPUBENCH_FINDING_RULE_ENTRY
  return table;
}

std::vector<finding> evaluate(const run_input& run, const rule_options& options) {
  std::vector<finding> all;
  for (const auto& r : all_rules())
    for (auto& f : r.run(run.file, options))
      all.push_back(std::move(f));
  std::set<std::string> degraded;
  for (const auto& f : all)
    if (f.rule == "pcie.link_degraded") degraded.insert(f.subject.substr(0, f.subject.find(" (")));
  std::erase_if(all, [&](const finding& f) {
    return f.rule == "gpu.host_outlier" && degraded.contains(f.subject);
  });
  std::stable_sort(all.begin(), all.end(), [](const finding& a, const finding& b) {
    return static_cast<int>(a.level) < static_cast<int>(b.level);
  });
  return all;
}

}  // namespace gpubench::reports::page_one::findings

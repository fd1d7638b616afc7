// Placeholder until the rules land: no rule yet, so no finding.
#include "reports/findings/finding.hpp"

namespace gpubench::reports::findings {

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

std::vector<finding> evaluate(const run_input&, const rule_options&) {
  return {};
}

}  // namespace gpubench::reports::findings

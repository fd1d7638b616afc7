// Placeholder until the projection lands.
#include "reports/projection.hpp"

namespace gpubench::reports {

std::optional<section> projection_section(const std::vector<run_input>&, const report_options&) {
  return std::nullopt;
}

}  // namespace gpubench::reports

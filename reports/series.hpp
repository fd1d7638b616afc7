// Cases gathered for one view of the report, and the labels that tell their lines apart.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/report_inputs.hpp"

namespace gpubench::reports {

struct case_ref {
  const run_input* run = nullptr;
  const core::case_result* result = nullptr;
  std::string label;  // what distinguishes this case from the others of its view
};

// Labels each case by what differs between the cases: the run (when there are several), the
// part of the benchmark id that differs (tcp/rdma), and the parameters whose values differ.
// Parameters named in `ignore` are left out (they are an axis of the view, like src/dst).
void label_cases(std::vector<case_ref>& cases, const std::vector<std::string>& ignore = {});

// The cases with measured points (status ok), in order.
std::vector<case_ref> measured(const std::vector<case_ref>& cases);

// The point at the largest / smallest message size of a case; nullptr when it has none.
const core::point_result* largest_point(const core::case_result& c);
const core::point_result* smallest_point(const core::case_result& c);

// A numeric extra of a point (algbw, busbw, cpu_seconds_per_gb), or NaN.
double extra_value(const core::point_result& p, const std::string& key);

}  // namespace gpubench::reports

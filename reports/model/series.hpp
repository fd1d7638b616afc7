// Cases gathered for one view of the report, and the labels that tell their lines apart.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::model {

struct case_ref {
  const run_input* run = nullptr;
  const core::case_result* result = nullptr;
  std::string label;  // what distinguishes this case from the others of its view
};

// Labels each case by what differs between the cases: the run (when there are several), the
// part of the benchmark id that differs (tcp/rdma), and the parameters whose values differ.
// Parameters named in `ignore` are left out (they are an axis of the view, like src/dst).
void label_cases(std::vector<case_ref>& cases, const std::vector<std::string>& ignore = {});

// Which parameters tell the cases of a table apart and which all rows share (they go in the
// table's caption, once). A key varies when two cases give it different values, or when one
// case of a benchmark id has it and another of the same id does not; keys a benchmark id does
// not have at all do not make it vary (TCP has a peer, RDMA a device: the id tells them apart).
struct parameter_split {
  std::vector<std::string> varying;  // keys, sorted
  std::string shared;                // "peer=198.18.0.2:18515, streams=1"; empty when none
};
parameter_split split_parameters(const std::vector<case_ref>& cases,
                                 const std::vector<std::string>& ignore = {});

// "caption; every row: peer=..., streams=1" when the cases share parameters, else the caption.
std::string with_shared(const std::string& caption, const std::vector<case_ref>& cases,
                        const std::vector<std::string>& ignore = {});

// The cases with measured points (status ok), in order.
std::vector<case_ref> measured(const std::vector<case_ref>& cases);

// The point at the largest / smallest message size of a case; nullptr when it has none.
const core::point_result* largest_point(const core::case_result& c);
const core::point_result* smallest_point(const core::case_result& c);

// A numeric extra of a point (algbw, busbw, cpu_seconds_per_gb), or NaN.
double extra_value(const core::point_result& p, const std::string& key);

}  // namespace gpubench::reports::model

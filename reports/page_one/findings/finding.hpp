// Findings: what a result file means, in plain words, with the evidence that shows it and what
// to check next. Each rule is a pure function over one parsed run (its results and system), so
// the same findings appear in every report format and on the console (docs/report.md lists the
// rules, their inputs and thresholds).
#pragma once

#include <string>
#include <vector>

#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::page_one::findings {

enum class severity { problem, warning, info };
std::string to_string(severity s);  // "problem" | "warning" | "info"

struct finding {
  std::string rule;  // stable id, e.g. "pcie.link_degraded"
  severity level = severity::info;
  std::string subject;   // what it is about: "GPU 3 host->device", "node n07", "TCP vs RDMA"
  std::string title;     // one sentence in plain words
  std::string evidence;  // the figures from the file that show it
  std::string check;     // what to check or do next
};

// Thresholds of the rules; the defaults are the documented ones.
struct rule_options {
  double far_below_line = 0.5;    // a path under this fraction of its line rate is "far below"
  double sibling_outlier = 0.75;  // a GPU or GPU pair under this fraction of its siblings' median
  double remote_numa_penalty = 0.8;  // remote-NUMA rate under this fraction of local
  double line_reached = 0.8;         // a path at or above this fraction of line rate "reaches" it
  double mtu_speed_gbps = 25;        // links this fast or faster want jumbo frames (9000)
  double scaling_falloff = 0.7;      // allreduce busbw under this fraction of the first
                                     // multi-node count's "falls off"
  int min_siblings = 3;              // outliers are judged among at least this many peers
  double collapse_factor = 2;        // busbw down by this factor from one size to the next ...
  int collapse_sizes = 2;            // ... and staying down this many sizes "collapses"
};

// Every rule over one run, in a stable order (problems first).
std::vector<finding> evaluate(const model::run_input& run, const rule_options& options = {});

}  // namespace gpubench::reports::page_one::findings

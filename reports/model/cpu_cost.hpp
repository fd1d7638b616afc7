// A network point's CPU cost per GB as reports read it: both ends' whole machines where the
// result has them (extra machine_cpu_seconds_per_gb: user, system, irq and softirq of every
// core, as netperf's -c/-C count them), else the transport threads' own time
// (cpu_seconds_per_gb: files written before whole-machine accounting, or a peer too old to
// send its side). Two costs are set side by side only on one basis.
#pragma once

#include <string>
#include <utility>

#include "core/result.hpp"

namespace gpubench::reports::model {

enum class cpu_basis { whole_machine, threads };
// "whole machine, both ends" | "transport threads only".
std::string to_string(cpu_basis b);

struct cpu_cost {
  double seconds_per_gb;  // NaN when the point has no cost on its basis
  cpu_basis basis;
};

// The point's cost on the best basis it has.
cpu_cost cpu_cost_of(const core::point_result& p);
// The point's cost on `basis` (NaN when it has none).
cpu_cost cpu_cost_of(const core::point_result& p, cpu_basis basis);
// Two points' costs on one basis: the whole machine when both have it, else the threads.
std::pair<cpu_cost, cpu_cost> like_for_like(const core::point_result& a,
                                            const core::point_result& b);

}  // namespace gpubench::reports::model

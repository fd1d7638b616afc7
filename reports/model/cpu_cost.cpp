#include "reports/model/cpu_cost.hpp"

#include <cmath>

#include "reports/model/series.hpp"

namespace gpubench::reports::model {

std::string to_string(cpu_basis b) {
  return b == cpu_basis::whole_machine ? "whole machine, both ends" : "transport threads only";
}

cpu_cost cpu_cost_of(const core::point_result& p, cpu_basis basis) {
  const char* key =
      basis == cpu_basis::whole_machine ? "machine_cpu_seconds_per_gb" : "cpu_seconds_per_gb";
  return {extra_value(p, key), basis};
}

cpu_cost cpu_cost_of(const core::point_result& p) {
  const auto machine = cpu_cost_of(p, cpu_basis::whole_machine);
  return std::isfinite(machine.seconds_per_gb) ? machine : cpu_cost_of(p, cpu_basis::threads);
}

std::pair<cpu_cost, cpu_cost> like_for_like(const core::point_result& a,
                                            const core::point_result& b) {
  const auto basis = cpu_cost_of(a).basis == cpu_basis::whole_machine &&
                             cpu_cost_of(b).basis == cpu_basis::whole_machine
                         ? cpu_basis::whole_machine
                         : cpu_basis::threads;
  return {cpu_cost_of(a, basis), cpu_cost_of(b, basis)};
}

}  // namespace gpubench::reports::model

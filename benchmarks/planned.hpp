// A benchmark id that this version lists but does not implement yet: listed as unavailable
// with that reason, recorded as skipped, never measured.
#pragma once

#include <stdexcept>
#include <string>

#include "core/registry.hpp"

namespace gpubench::benchmarks {

inline void add_planned(core::registry& r, std::string id, std::string suite,
                        std::string description, core::metric_info metric) {
  core::benchmark_def def;
  def.id = std::move(id);
  def.suites = {std::move(suite)};
  def.description = std::move(description);
  def.metric = std::move(metric);
  def.requirement = [](const core::run_context&) {
    return core::requirement_status::missing("not implemented in this version of gpubench");
  };
  def.body = [](core::case_state&) { throw std::logic_error("planned benchmark has no body"); };
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks

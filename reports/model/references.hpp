// Published reference figures (references.json, built into the program) and which of them
// apply to a run's hardware. They are shown as references, never as measurements.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::reports::model {

struct reference_figure {
  core::measure_kind kind;  // path and the qualifiers it names; empty qualifiers match any
  std::string metric;       // "bandwidth" | "latency"; empty: any (allreduce figures are busbw)
  nlohmann::json params;    // must be a subset of a measured case's parameters
  nlohmann::json hardware;  // gpu (name contains), gpu_count, nic_speed_gbps, rdma_link_layer,
                            // rdma_speed_gbps: all must hold for one system
  std::string what;
  double low = 0;
  double high = 0;
  std::string unit;
  std::string source;
};

class reference_set {
 public:
  // Parses a gpubench.references/1 document; throws core::input_error prefixed by `origin`.
  reference_set(const nlohmann::json& doc, const std::string& origin);
  // The figures shipped with gpubench.
  static reference_set builtin();

  const std::vector<reference_figure>& figures() const { return m_figures; }
  // Figures of the case's kind and metric whose hardware matches `system` and whose params
  // are among the case's.
  std::vector<const reference_figure*> matching(const core::case_result& c,
                                                const nlohmann::json& system) const;

 private:
  std::vector<reference_figure> m_figures;
};

// Whether a system block has the hardware a figure was measured on.
bool hardware_matches(const nlohmann::json& hardware, const nlohmann::json& system);

// "55-57 GB/s" or "25.9 GB/s".
std::string figure_text(const reference_figure& f);

}  // namespace gpubench::reports::model

// The per-family sections of a report: cases grouped into views, each view rendered by the
// generic bandwidth/latency view or by a special one (GPU pair heatmaps, allreduce scaling).
#pragma once

#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/references.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/model/series.hpp"

namespace gpubench::reports::views {

// One section per view that has measured cases, in the order the files list them (chart and
// compact tables), and for the appendix one level-2 section per view with every point.
struct measurement_parts {
  std::vector<model::section> views;
  std::vector<model::section> appendix;
};
measurement_parts measurement_sections(const std::vector<model::run_input>& runs,
                                       const model::reference_set& refs);

// Which view a case belongs to, by the kind it declares and its metric: the network latency of
// every transport shares one view, so TCP and RDMA land on one chart; a host-GPU copy has a view
// per direction. A case of a kind this reader does not know has a view of its own.
std::string view_key(const core::case_result& c);
// The title of a view, from its cases (not empty): "Network latency: TCP and RDMA".
std::string view_title(const std::vector<model::case_ref>& cases);

// Bandwidth or latency against message size, one line per parameter combination.
model::section generic_view(const std::string& title, std::vector<model::case_ref> cases,
                            const model::reference_set& refs);
// GPU pair matrices (params src, dst) as heatmaps; cases that are not pairs get the generic view.
model::section pair_view(const std::string& title, std::vector<model::case_ref> cases,
                         const model::reference_set& refs);
// Allreduce bus bandwidth per node count and the 1 -> N node scaling table.
model::section allreduce_view(const std::string& title, std::vector<model::case_ref> cases,
                              const model::reference_set& refs);

}  // namespace gpubench::reports::views

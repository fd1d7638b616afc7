// "Is my number normal?": each page-one figure that a published band covers (bands.json), set
// against the band of the system the run's GPU and NIC names, PCIe generation and link layer
// point to, with its source. Nothing is said where no band fits.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/compare/comparison.hpp"
#include "reports/model/bands.hpp"
#include "reports/model/document.hpp"
#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::page_one {

enum class band_position { below, within, above };

struct band_check {
  std::string metric;
  std::string path;  // "Host to GPU (pinned): slowest of 8 (GPU 3)"
  const core::case_result* result = nullptr;
  double value = 0;  // in the band's unit
  const model::band* band = nullptr;
  std::string system;  // the band's system, by name
  band_position position = band_position::within;
  std::string note;  // what chose the band: "algorithm not recorded", "per NIC, 8 NICs"
};

// Every figure of one run a band covers, in the order of the metrics.
std::vector<band_check> band_checks(const model::run_input& run, const model::band_table& bands);
// The checks point into the table: it must outlive them, so never a temporary.
std::vector<band_check> band_checks(const model::run_input& run, model::band_table&&) = delete;

// "within the band published for H100 SXM (NVLink 4, PCIe 5.0): 51-55 GB/s, floor 48", "below
// ...; 54 % of its low end, under the floor of 48".
std::string band_sentence(const band_check& c);

// Page one's table: path | measured | verdict | source; date. No rows
// where no band fits.
model::table bands_table(const std::vector<band_check>& checks);

// The same checks as compare rows (basis reference): below the band by more than the
// threshold fails the gate (SLOWER), within or above it does not (SAME, FASTER).
std::vector<compare::comparison_row> band_rows(const model::run_input& run,
                                               const model::band_table& bands,
                                               const compare::compare_options& options);

}  // namespace gpubench::reports::page_one

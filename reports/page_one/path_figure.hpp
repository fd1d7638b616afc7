// The one figure page one shows for a measured case: the median at the largest message size
// for bandwidth, the p50 at the smallest size for latency, with its fraction of the line rate
// and the colour band that fraction falls in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "reports/model/document.hpp"

namespace gpubench::reports::page_one {

// Band thresholds (docs/report.md): at least 80 % of the line rate is good, 50 % to 80 % fair,
// below 50 % poor.
constexpr double good_fraction = 0.8;
constexpr double fair_fraction = 0.5;

struct path_figure {
  double value = 0;
  std::string unit;
  bool higher_is_better = true;
  std::uint64_t bytes = 0;
  double fraction = 0;  // of the line rate; NaN when the case has none in its unit
  std::string extra;    // the point extra plotted (busbw for allreduce), empty for the median
};

// Nothing when the case was not measured. Allreduce cases give their busbw at the largest size.
std::optional<path_figure> headline_figure(const core::case_result& c);

model::line_band band_of(double fraction);

// "54.8 GB/s" or "3.92 us"; with_fraction adds ", 87 % of line" when there is a line rate.
std::string figure_text(const path_figure& f, bool with_fraction);

}  // namespace gpubench::reports::page_one

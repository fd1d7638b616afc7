#include "reports/page_one/path_figure.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::page_one {

using namespace model;

std::optional<path_figure> headline_figure(const core::case_result& c) {
  if (c.status != core::case_status::ok || c.points.empty()) return std::nullopt;
  path_figure f;
  f.higher_is_better = c.better != "lower";
  f.unit = c.unit;
  f.fraction = std::nan("");
  const bool allreduce = c.kind.is(core::paths::collective);
  const auto* p = f.higher_is_better || allreduce ? largest_point(c) : smallest_point(c);
  if (!p) return std::nullopt;
  f.bytes = p->bytes;
  if (allreduce && std::isfinite(extra_value(*p, "busbw"))) {
    f.extra = "busbw";
    f.value = extra_value(*p, "busbw");
    f.unit = "GB/s";
    f.higher_is_better = true;
  } else {
    f.value = p->stats.median;
  }
  if (!std::isfinite(f.value)) return std::nullopt;
  if (f.higher_is_better && c.peak && c.peak->unit == f.unit && c.peak->value > 0)
    f.fraction = f.value / c.peak->value;
  return f;
}

line_band band_of(double fraction) {
  if (!std::isfinite(fraction)) return line_band::unknown;
  if (fraction >= good_fraction) return line_band::good;
  if (fraction >= fair_fraction) return line_band::fair;
  return line_band::poor;
}

std::string figure_text(const path_figure& f, bool with_fraction) {
  std::string out = format_value(f.value) + " " + f.unit;
  if (!f.extra.empty()) out = f.extra + " " + out;
  if (with_fraction && std::isfinite(f.fraction))
    out += fmt::format(", {:.0f} % of line", f.fraction * 100.0);
  return out;
}

}  // namespace gpubench::reports::page_one

// Building blocks shared by the views of a benchmark family: the table of points, the chart
// against message size, the paths crossed, the reference figures and what was not measured.
#pragma once

#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/references.hpp"
#include "reports/model/series.hpp"

namespace gpubench::reports::views {

// One row per point of each measured case: the stats stored in the file, % of the line rate
// for bandwidth, and the point extras (cpu_seconds_per_gb, algbw, busbw) when present.
model::table point_table(const std::vector<model::case_ref>& cases);
// A point's sample count, with the stopping rule's minimum when its time limit cut it short,
// and the minimum of operations per sample when its samples had to hold fewer.
std::string samples_text(const core::point_result& p);

// The compact table beside a chart: one row per case at its headline size (bandwidth: median
// and % of line rate at the largest size; latency: p50 and p99 at the smallest and p50 at the
// largest). The full per-size table goes to the appendix.
model::table summary_table(const std::vector<model::case_ref>& cases);

// The value a chart plots for a point: an extra (busbw) when `extra_key` is set, else the
// median of the stored statistics.
double plotted_value(const core::point_result& p, const std::string& extra_key);

// Median against message size, one line per case (past max_drawn_series cases, their spread:
// best, median and worst at each size); latency gets the p50-p99 band. Line rates
// and matching reference figures are drawn as horizontal lines. `extra_key` plots an extra.
model::line_chart size_chart(const std::string& title, const std::vector<model::case_ref>& cases,
                             const std::vector<const model::reference_figure*>& refs,
                             const std::string& extra_key = "", const std::string& y_label = "");

// True when some case has at least two sizes, so a chart against size says something.
bool has_size_axis(const std::vector<model::case_ref>& cases);

// The path each case crossed (its context) and the basis of its line rate.
model::table path_table(const std::vector<model::case_ref>& cases);

// Reference figures that match the hardware and parameters of the measured cases.
std::vector<const model::reference_figure*> matching_references(
    const std::vector<model::case_ref>& cases, const model::reference_set& refs);
// The figures as a table, titled so nobody mistakes them for measurements.
model::table reference_table(const std::vector<const model::reference_figure*>& refs);

// Cases of the view that were skipped or failed: a note per status and reason, naming them.
std::vector<model::note> not_measured_notes(const std::vector<model::case_ref>& cases);

// Appends the reference and not-measured blocks when they have rows (the path of each variant
// is in the appendix, beside its points).
void append_common_blocks(model::section& s, const std::vector<model::case_ref>& all,
                          const std::vector<const model::reference_figure*>& refs);

}  // namespace gpubench::reports::views

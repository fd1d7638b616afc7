// What `history`, `compare --history` and the report's trend section read from a store: each
// series cut into segments where its fingerprint changes (events), change points found in each
// segment (change_points.hpp), and Benjamini-Hochberg over all the series of one query.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "history/change_points.hpp"
#include "history/store.hpp"

namespace gpubench::history {

struct analysis_options {
  change_options change;
  double fdr = 0.05;  // Benjamini-Hochberg's false discovery rate over the query's series
};

// A fingerprint change: the point at `index` is the first of a new segment.
struct fingerprint_event {
  std::size_t index = 0;
  std::vector<std::string> changes;  // fingerprint_changes(); empty when the detail is unknown
};

// A change point, its index into the series' points (the first run after the change).
struct series_change {
  std::size_t index = 0;
  change_point at;
};

struct series_analysis {
  series data;
  std::vector<fingerprint_event> events;
  std::vector<series_change> changes;  // those that stayed significant across the query
};

// The segments of a series: [begin, end) index ranges of consecutive points of one fingerprint.
std::vector<std::pair<std::size_t, std::size_t>> fingerprint_segments(const series& s);

std::vector<series_analysis> analyse(std::vector<series> all,
                                     const std::map<std::string, nlohmann::json>& fingerprints,
                                     const analysis_options& options);

// The values a new point of fingerprint `fingerprint` is judged against: the series' last
// segment when it has that fingerprint, from its last change point on; empty when the series
// ends in another fingerprint (the new point starts a segment).
std::vector<double> latest_segment(const series& s, const std::string& fingerprint,
                                   const change_options& options);

}  // namespace gpubench::history

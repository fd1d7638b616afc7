// The comparison model: two result files (or a result file and reference values) aligned point
// by point, with relative change, U test and verdict. Every compare output and the report's
// comparison view are renderings of this one model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "reports/compare/mann_whitney.hpp"

namespace gpubench::reports::compare {

enum class verdict {
  faster,      // beyond the threshold in the better direction, supported by the samples
  slower,      // beyond the threshold in the worse direction, supported: fails the gate
  same,        // within the threshold (or within the reference bounds)
  noisy,       // beyond the threshold, but the samples do not support it (or too few)
  added,       // only NEW has a result here
  removed,     // only BASE has a result here
  lost,        // BASE had a result, NEW skipped or failed the case: fails the gate
  unmeasured,  // neither side has a result (both skipped or failed): nothing to compare
};
// "FASTER", "SLOWER", "SAME", "NOISY", "ADDED", "REMOVED", "LOST", "UNMEASURED".
std::string to_string(verdict v);

// Where the expected side of a row comes from.
enum class row_basis { baseline, reference };
std::string to_string(row_basis b);

// Relative thresholds (0.05 is 5%): one global value and overrides per benchmark id.
struct thresholds {
  double global = 0.05;
  // Key: a benchmark id ("net.tcp.latency") or a prefix ending in '*' ("net.tcp.*"). The exact
  // id wins over prefixes; the longest prefix wins among prefixes.
  std::map<std::string, double> per_benchmark;

  double for_benchmark(const std::string& id) const;
};

struct compare_options {
  thresholds threshold;
  double alpha = 0.05;           // significance level of the two-sided U test
  bool fail_on_removed = false;  // REMOVED rows fail the gate too (coverage must not shrink)
  // A point of one value on a side has no U test: it is judged by the sign test across its
  // sweep, or alone when it moved by at least this factor either way (sign_test.hpp).
  double single_value_factor = 2.0;
};

// Expected value and bounds for a row checked against a reference file.
struct reference_bounds {
  std::string system;  // the matched system entry (label or host pattern)
  double expected = 0;
  std::optional<double> lower;  // absolute, in the metric's unit; none: unbounded
  std::optional<double> upper;
};

struct comparison_row {
  row_basis basis = row_basis::baseline;
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();
  std::optional<std::uint64_t> bytes;  // none: the case has no points (skipped, failed)
  std::string metric;                  // "bandwidth" | "latency"
  std::string unit;                    // "GB/s" | "us"
  std::string better;                  // "higher" | "lower"

  // Medians of the raw samples (the stored stats.median), when that side has a point.
  std::optional<double> base_value;  // for reference rows: the expected value
  std::optional<double> new_value;
  std::optional<double> ratio;   // new / base
  std::optional<double> change;  // relative change, signed so that > 0 is better, < 0 worse
  double threshold = 0;          // the relative threshold that applied
  std::optional<u_test_result> test;
  std::optional<reference_bounds> reference;
  bool one_value = false;        // a side holds one value: judged by judge_one_value_sweeps
  std::optional<double> sign_p;  // one-value rows: the sign test across the sweep
  std::string decided_by;        // "sign test", "single-value bound" or "" (not decided)

  verdict result = verdict::same;
  bool regression = false;  // this row fails the gate
  std::string note;         // why: skip/fail reasons, "too few samples", bounds crossed
};

struct comparison {
  std::string base_name;  // how the expected side is named in output: a file name
  std::string new_name;
  compare_options options;
  std::vector<comparison_row> rows;   // BASE's order, then what only NEW has
  std::vector<std::string> warnings;  // about the inputs: "NEW run is partial: ..."

  bool regressed() const;
  std::size_t count(verdict v) const;
  std::size_t regressions() const;
};

// Aligns cases by benchmark id and params, then points by bytes. Throws core::input_error
// when a file holds the same case twice.
comparison compare_results(const core::result_file& base, const core::result_file& fresh,
                           const compare_options& options, std::string base_name = "BASE",
                           std::string new_name = "NEW");

// Lower numbers first: regressions, then noise, then changes, then the unremarkable.
int severity(const comparison_row& row);

// Rows ordered by severity (stable, so the files' order is kept within a severity).
std::vector<comparison_row> by_severity(const std::vector<comparison_row>& rows);

// "benchmark {params} @ bytes", for tables and junit test names.
std::string row_label(const comparison_row& row);

}  // namespace gpubench::reports::compare

// Robust statistics across the nodes of a cluster (median, scaled MAD, the outlier test) and the
// per-node view of a pair measurement, shared by the suspects analysis and the cluster report.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "cluster/suspects.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// The consistency factor that makes the MAD estimate the standard deviation of normal data.
inline constexpr double mad_scale = 1.4826;
// Fewer nodes answering than this: no statistics, no verdict (with two nodes there is one pair
// and two values: nothing says which side is the odd one).
inline constexpr std::size_t min_nodes_for_verdict = 3;

double median_of(std::vector<double> values);  // NaN for none
// Median absolute deviation from `center` (not yet scaled).
double mad_of(const std::vector<double>& values, double center);

// Where a figure sits against the cluster: the median, the spread and which way is bad. The
// spread is taken on the logarithm of the figures: bandwidth and latency vary by factors, and a
// bandwidth figure cannot fall below 0, so on a linear scale a cluster whose healthy figures
// spread by a quarter could never name a link however slow (4 scaled MADs reach below 0).
struct reference {
  double median = 0;      // of the figures
  double log_median = 0;  // of their logarithms
  double log_mad = 0;     // scaled MAD of their logarithms
  bool higher_is_better = true;

  // Relative change from the median in the bad direction (0.75: a quarter of the median
  // bandwidth, or 75% more latency); negative when better than the median.
  double bad_change(double x) const;
  // Robust z on the log scale: |log x - log median| / scaled MAD of the logs (infinite for any
  // difference when that MAD is 0).
  double robust_z(double x) const;
  // Worse than the median by both the robust z and the relative floor of a single figure.
  bool is_outlier(double x, const suspect_options& options) const;
  // Worse than the median by a robust z over `deviation` and at least `floor` (relative).
  bool is_outlier(double x, double deviation, double floor) const;
  // Worse than the median by at least `floor` (relative), whatever the spread.
  bool falls_short(double x, double floor) const { return bad_change(x) >= floor; }
};

// The relative floor for a verdict drawn from many figures (a node's pairs, a leaf's cross-leaf
// pairs): min_node_change for bandwidth, min_latency_change for latency.
double node_floor(const suspect_options& options, bool higher_is_better);

reference make_reference(const std::vector<double>& values, bool higher_is_better);

// How far one node's samples of one point scatter: their scaled MAD over their median (robust to
// the odd preempted sample, unlike the coefficient of variation); nullopt without at least 3
// samples or with a median of 0.
std::optional<double> relative_spread(const std::vector<double>& samples);

// Each node's median over its measured pairs with other answering nodes (nullopt: none), over
// the section's pair slots (every pair, or a sparse sweep's list).
std::vector<std::optional<double>> node_pair_medians(const core::cluster_section& c,
                                                     const core::pair_measurement& m);

bool node_answered(const core::cluster_node& n);

}  // namespace gpubench::cluster

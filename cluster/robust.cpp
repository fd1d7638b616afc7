#include "cluster/robust.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/cluster.hpp"

namespace gpubench::cluster {

double median_of(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  const double upper = *mid;
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), mid);
  return (lower + upper) / 2;
}

double mad_of(const std::vector<double>& values, double center) {
  std::vector<double> dev;
  dev.reserve(values.size());
  for (double v : values)
    dev.push_back(std::abs(v - center));
  return median_of(std::move(dev));
}

double reference::bad_change(double x) const {
  const double worse = higher_is_better ? median - x : x - median;
  if (median > 0) return worse / median;
  if (worse == 0) return 0;
  return worse > 0 ? std::numeric_limits<double>::infinity()
                   : -std::numeric_limits<double>::infinity();
}

namespace {
// The logarithm of a figure; a figure of 0 (nothing moved) is as far as can be.
double log_of(double x) {
  return std::log(std::max(x, std::numeric_limits<double>::min()));
}
}  // namespace

double reference::robust_z(double x) const {
  const double diff = std::abs(log_of(x) - log_median);
  if (log_mad > 0) return diff / log_mad;
  return diff > 0 ? std::numeric_limits<double>::infinity() : 0;
}

bool reference::is_outlier(double x, const suspect_options& options) const {
  return is_outlier(x, options.deviation,
                    higher_is_better ? options.min_change : options.min_latency_change);
}

bool reference::is_outlier(double x, double deviation, double floor) const {
  return bad_change(x) >= floor && robust_z(x) > deviation;
}

double node_floor(const suspect_options& options, bool higher_is_better) {
  return higher_is_better ? options.min_node_change : options.min_latency_change;
}

reference make_reference(const std::vector<double>& values, bool higher_is_better) {
  reference r;
  r.higher_is_better = higher_is_better;
  r.median = median_of(values);
  std::vector<double> logs;
  logs.reserve(values.size());
  for (const double v : values)
    logs.push_back(log_of(v));
  r.log_median = median_of(logs);
  r.log_mad = mad_scale * mad_of(logs, r.log_median);
  return r;
}

std::optional<double> relative_spread(const std::vector<double>& samples) {
  if (samples.size() < 3) return std::nullopt;
  const double m = median_of(samples);
  if (!(m > 0)) return std::nullopt;
  return mad_scale * mad_of(samples, m) / m;
}

bool node_answered(const core::cluster_node& n) {
  return n.status == core::node_status::ok;
}

std::vector<std::optional<double>> node_pair_medians(const core::cluster_section& c,
                                                     const core::pair_measurement& m) {
  const std::size_t n = c.nodes.size();
  std::vector<std::vector<double>> per_node(n);
  const std::size_t slots = std::min(core::slot_count(c), m.median.size());
  for (std::size_t i = 0; i < slots; ++i) {
    if (!m.median[i]) continue;
    const auto p = core::slot_pair(c, i);
    if (p.a >= n || p.b >= n || !node_answered(c.nodes[p.a]) || !node_answered(c.nodes[p.b]))
      continue;
    per_node[p.a].push_back(*m.median[i]);
    per_node[p.b].push_back(*m.median[i]);
  }
  std::vector<std::optional<double>> out(n);
  for (std::size_t a = 0; a < n; ++a)
    if (!per_node[a].empty()) out[a] = median_of(std::move(per_node[a]));
  return out;
}

}  // namespace gpubench::cluster

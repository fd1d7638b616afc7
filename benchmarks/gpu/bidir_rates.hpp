// Both directions of a bidirectional copy timed on their own streams: each direction's
// bandwidth over its own interval, and their sum (as nvbandwidth reports device<->device).
#pragma once

#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/statistics.hpp"

namespace gpubench::benchmarks::gpu {

struct bidir_rates {
  double first_gbps = 0;   // bytes / seconds of the first direction, 1e9 bytes/s
  double second_gbps = 0;  // the same for the second direction
  double sum_gbps = 0;
  // The duration that gives sum_gbps for both directions' bytes together, so the runner's
  // bytes / seconds reports the sum.
  double effective_seconds = 0;
};

// Each interval must be wholly overlapped by traffic the other way (the jobs keep both
// streams busy past the other's end), else the slower direction's tail runs alone and is
// biased high.
inline bidir_rates split_rates(double first_bytes, double first_seconds, double second_bytes,
                               double second_seconds) {
  if (!(first_seconds > 0) || !(second_seconds > 0))
    throw std::runtime_error("a direction of the bidirectional copy took no measurable time");
  bidir_rates r;
  r.first_gbps = first_bytes / first_seconds * 1e-9;
  r.second_gbps = second_bytes / second_seconds * 1e-9;
  r.sum_gbps = r.first_gbps + r.second_gbps;
  r.effective_seconds = (first_bytes + second_bytes) * 1e-9 / r.sum_gbps;
  return r;
}

// Medians of each direction over the samples of one point, the runner's `warmup` samples
// (the first ones) left out as they are left out of the point's statistics.
inline std::pair<double, double> direction_medians(const std::vector<bidir_rates>& samples,
                                                   std::size_t warmup) {
  std::vector<double> first, second;
  for (std::size_t i = warmup; i < samples.size(); ++i) {
    first.push_back(samples[i].first_gbps);
    second.push_back(samples[i].second_gbps);
  }
  if (first.empty()) throw std::logic_error("no timed sample of the bidirectional copy");
  return {core::summarize(first).median, core::summarize(second).median};
}

}  // namespace gpubench::benchmarks::gpu

// The arithmetic of the training scaling projection, apart from its presentation: interpolating
// a measured collective's time at a message size, the step time and the speedup. A model of a
// job whose every step computes for T seconds and then communicates.
#pragma once

#include <optional>
#include <vector>

namespace gpubench::reports::page_one::projection {

struct size_time {
  double bytes = 0;
  double seconds = 0;
};

// The time of one operation at `bytes`, from measured points sorted by size: the measured time at a
// measured size, else log-log between the two nearest measured sizes around it. Nothing below
// the smallest or above the largest measured size: the model never extrapolates.
std::optional<double> interpolate_seconds(const std::vector<size_time>& measured, double bytes);

// The two measured points around `bytes` (the same one twice at a measured size); nothing
// outside the measured sizes.
std::optional<std::pair<size_time, size_time>> bracket(const std::vector<size_time>& measured,
                                                       double bytes);

// step = T + communication x (1 - overlap).
double step_seconds(double compute, double communication, double overlap);

// Speedup at n nodes against base_n nodes (1 in the usual case): (n / base_n) x
// step(base_n) / step(n). With base_n = 1 this is n x step(1) / step(n).
double speedup(double n, double base_n, double step_base, double step_n);

}  // namespace gpubench::reports::page_one::projection

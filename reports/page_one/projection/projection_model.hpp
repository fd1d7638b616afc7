// The arithmetic of the training scaling projection, apart from its presentation: interpolating
// a measured allreduce time at a gradient size, the step time and the speedup. A model of a
// data-parallel job whose every step computes for T seconds and then allreduces S bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpubench::reports::page_one::projection {

struct size_time {
  double bytes = 0;
  double seconds = 0;
};

// The allreduce time at `bytes`, from measured points sorted by size: the measured time at a
// measured size, else log-log between the two nearest measured sizes around it. Nothing below
// the smallest or above the largest measured size: the model never extrapolates.
std::optional<double> interpolate_seconds(const std::vector<size_time>& measured, double bytes);

// The two measured points around `bytes` (the same one twice at a measured size); nothing
// outside the measured sizes.
std::optional<std::pair<size_time, size_time>> bracket(const std::vector<size_time>& measured,
                                                       double bytes);

// step = T + allreduce x (1 - overlap).
double step_seconds(double compute, double allreduce, double overlap);

// Speedup at n nodes against base_n nodes (1 in the usual case): (n / base_n) x
// step(base_n) / step(n). With base_n = 1 this is n x step(1) / step(n).
double speedup(double n, double base_n, double step_base, double step_n);

// A gradient size the projection is shown for, named by the models it corresponds to.
struct gradient {
  double bytes = 0;
  std::string name;   // "100 MB"
  std::string basis;  // "25.6 M parameters x 4 B (fp32) = 102 MB: ResNet-50"
};
// 100 MB, 1.4 GB, 6 GB (decimal units), with their arithmetic.
std::vector<gradient> gradients();

}  // namespace gpubench::reports::page_one::projection

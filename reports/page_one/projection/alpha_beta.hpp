// The alpha-beta model of a ring (pairwise for all-to-all), fitted to the measured times of one
// collective, the only way the projection goes beyond the measured node counts:
//   time(n, S) = a(n) x alpha + f(n) x S / B
// a(n) the latency steps (allreduce 2(n-1), allgather, reduce_scatter and alltoall n-1,
// broadcast n-1, sendrecv 1), f(n) the operation's bus-bandwidth factor (so B is the bus
// bandwidth the curve tends to), n the ranks, S the size as the result records it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace gpubench::reports::page_one::projection {

struct timed_point {
  double ranks = 0;
  double bytes = 0;
  double seconds = 0;
};

struct ring_terms {
  double latency_steps = 0;  // a(n)
  double bus_factor = 0;     // f(n)
};
// Nothing for an operation the model does not know, or fewer than one rank.
std::optional<ring_terms> ring_terms_of(std::string_view operation, double ranks);

struct alpha_beta {
  double alpha_seconds = 0;    // per latency step
  double bus_bytes_per_s = 0;  // B
  int points = 0;              // points the fit used
  double rms_residual = 0;     // of (fit - measured) / measured, over those points
  double max_residual = 0;     // the largest |(fit - measured) / measured|
};

// Least squares on the relative error (each point weighted by 1 / its time, so small and large
// messages count alike). Points of one rank (nothing moves between ranks) or with a time that
// is not positive are left out. A negative alpha is refitted as alpha = 0. Nothing when fewer
// than two usable points remain, when they do not tell alpha from B (one size at one rank
// count), or when B comes out not positive.
std::optional<alpha_beta> fit_alpha_beta(std::string_view operation,
                                         const std::vector<timed_point>& points);

// The fitted time of one operation of `bytes` over `ranks` ranks.
std::optional<double> predict_seconds(const alpha_beta& fit, std::string_view operation,
                                      double ranks, double bytes);

}  // namespace gpubench::reports::page_one::projection

// The CI gate against a series (docs/history.md "The gate"): is a new run's point one more
// observation of its series' latest segment, or did it move? Compare's rule with the segment
// in place of one base file: beyond the threshold and significant (a prediction t-test, the
// segment's own spread the noise floor) fails; too little history says so.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace gpubench::history {

struct gate_options {
  double threshold = 0.05;      // relative change within which a point is the same
  double alpha = 0.05;          // significance of the prediction test
  std::size_t min_history = 5;  // fewest points of the segment to judge against
  // Runs of the segment further than clip times its robust spread (1.4826 x MAD) from its
  // median are pulled in to that distance before the test (0: not): one disturbed run in the
  // history would otherwise widen the noise floor until a real step passes as noise.
  double clip = 3.0;
};

enum class gate_outcome {
  no_history,  // the series has no point in this segment (new, or its fingerprint changed)
  too_short,   // fewer than min_history points: not judged
  same,        // within the threshold
  better,      // beyond the threshold in the better direction, significant
  worse,       // beyond the threshold in the worse direction, significant: fails the gate
  noisy,       // beyond the threshold, but within the segment's own spread
};

struct gate_judgement {
  gate_outcome outcome = gate_outcome::no_history;
  std::size_t history = 0;       // points of the segment
  std::optional<double> median;  // the segment's median
  std::optional<double> change;  // value / median - 1, signed so that > 0 is better
  std::optional<double> p;       // two-sided p of the prediction test
};

// `segment`: the values of the latest segment, oldest first.
gate_judgement judge_point(std::span<const double> segment, double value, bool higher_is_better,
                           const gate_options& options);

// Two-sided p of a new value under the segment's normal model: t = (value - mean) /
// (s * sqrt(1 + 1/n)) with n - 1 degrees of freedom, the segment winsorized at `clip` first
// (see gate_options). 1 when n < 2.
double prediction_p(std::span<const double> segment, double value, double clip = 0);

}  // namespace gpubench::history

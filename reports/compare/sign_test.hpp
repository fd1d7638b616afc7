// The sign test and the single-value bound: how compare judges points that hold one value each
// (an imported run prints one figure per size), where a U test has nothing to work on.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"

namespace gpubench::reports::compare {

// Two-sided sign test: under "no change" every nonzero difference is lower or higher with
// probability 1/2, so k of n the same way has p = 2 P(X >= max(k, n - k)), X ~ Bin(n, 1/2),
// capped at 1. 8 of 8 lower: 2 / 256 = 0.0078. n = 0: p = 1.
double sign_test_two_sided_p(std::size_t lower, std::size_t higher);

// Judges the rows of one-value points (comparison_row::one_value) that moved beyond their
// threshold, with the evidence of the whole sweep: the rows of the same benchmark whose points
// hold one value on both sides form it. A row becomes SLOWER or FASTER when
//  - the sign test across the sweep is significant at `options.alpha` and the row moved the
//    way most of the sweep did, or
//  - its own change is at least `options.single_value_factor` (2: half or double) either way;
// otherwise it stays NOISY. The note says which test decided, with its figures.
void judge_one_value_sweeps(std::vector<comparison_row>& rows, const compare_options& options);

}  // namespace gpubench::reports::compare

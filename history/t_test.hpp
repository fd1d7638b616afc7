// Student's two-sample t-test (pooled variance) and the t distribution it needs: the
// significance of a change point between the segments on each side of it.
#pragma once

#include <span>

namespace gpubench::history {

struct t_test_result {
  double t = 0.0;   // (mean of b - mean of a) / its standard error
  double df = 0.0;  // degrees of freedom, n_a + n_b - 2
  double p = 1.0;   // two-sided p-value
};

// Both samples need at least one value and together at least three. Equal variances are
// assumed, as Otava's test does: with three observations after a change, Welch's test would
// judge on about two degrees of freedom and miss the changes the series shows plainly.
// Two samples without spread are 0 apart (p = 1) or infinitely significant (p = 0).
t_test_result student_t_test(std::span<const double> a, std::span<const double> b);

// P(|T| >= |t|) for Student's t with `df` > 0 degrees of freedom.
double t_two_sided_p(double t, double df);

// The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.
double incomplete_beta(double a, double b, double x);

}  // namespace gpubench::history

// The two-sided Mann-Whitney U test (Wilcoxon rank-sum) on two sets of raw samples: pure
// functions, so compare can say whether a shifted median is supported by the samples.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gpubench::reports::compare {

enum class u_method {
  exact,   // the permutation distribution of the rank sum, ties included (midranks)
  normal,  // normal approximation with tie correction and continuity correction
  none,    // too few samples: no p-value is claimed
};
std::string to_string(u_method m);

struct u_test_result {
  std::size_t n_base = 0;
  std::size_t n_new = 0;
  double u_base = 0;  // U of the first sample: pairs (b, n) with b > n, ties counting 1/2
  double u_new = 0;   // n_base * n_new - u_base
  double p = 1;       // two-sided p-value; 1 when method is none
  u_method method = u_method::none;
  // The smallest two-sided p-value these sample sizes can produce (no ties). When it is above
  // alpha the test can never reject, so the result says "too few samples" instead of guessing.
  double min_p = 1;
  bool too_few_samples = true;
  bool significant = false;  // p < alpha and not too_few_samples
};

// Sizes up to this total use the exact distribution; larger ones the normal approximation.
inline constexpr std::size_t exact_u_max_total = 40;

// Midranks (1-based, ties share the mean of their ranks) of the concatenation a ++ b.
std::vector<double> midranks(std::span<const double> a, std::span<const double> b);

// Smallest two-sided p-value of the exact test without ties: 2 / C(n1 + n2, n1), capped at 1.
double min_two_sided_p(std::size_t n1, std::size_t n2);

// Exact two-sided p: the probability, over all C(N, n1) equally likely assignments of the
// observed midranks to the first sample, that the rank sum lies at least as far from its mean
// as the observed one. Exact with ties too (conditional on the tie pattern).
double exact_two_sided_p(std::span<const double> a, std::span<const double> b);

// Normal approximation: z = (|U - n1 n2 / 2| - 1/2) / sigma, with
// sigma^2 = n1 n2 / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))) over tie groups of size t.
// p = 2 (1 - Phi(z)), capped at 1; 1 when sigma is 0 (all values equal).
double normal_two_sided_p(std::span<const double> a, std::span<const double> b);

// The whole test: exact when n1 + n2 <= exact_u_max_total, normal approximation beyond;
// method none (too_few_samples) when min_two_sided_p(n1, n2) > alpha or a side is empty.
// Non-finite samples are ignored.
u_test_result mann_whitney_u(std::span<const double> base, std::span<const double> fresh,
                             double alpha);

}  // namespace gpubench::reports::compare

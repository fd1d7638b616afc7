// The U test against values worked out by hand (rank sums, tie groups, counted subsets).
#include "reports/compare/mann_whitney.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace gpubench::reports::compare {
namespace {

TEST(mann_whitney, midranks_share_the_mean_rank_of_ties) {
  const std::vector<double> a{1, 2, 2}, b{2, 3, 4};
  const std::vector<double> expected{1, 3, 3, 3, 5, 6};
  EXPECT_EQ(midranks(a, b), expected);
}

TEST(mann_whitney, smallest_p_depends_only_on_sizes) {
  EXPECT_DOUBLE_EQ(min_two_sided_p(3, 3), 2.0 / 20);
  EXPECT_DOUBLE_EQ(min_two_sided_p(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(min_two_sided_p(1, 1), 1.0);
  EXPECT_DOUBLE_EQ(min_two_sided_p(0, 5), 1.0);
}

// Complete separation, 3 against 3: only the two extreme of C(6,3) = 20 subsets.
TEST(mann_whitney, exact_p_of_complete_separation) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  EXPECT_DOUBLE_EQ(exact_two_sided_p(a, b), 0.1);
  EXPECT_DOUBLE_EQ(exact_two_sided_p(b, a), 0.1);
}

// Midranks {1,3,3,3,5,6}, first sample {1,3,3}: rank sum 7, mean 10.5. Subsets of three
// with sum <= 7 (1 and two of the 3s: 3 ways) or >= 14 (a 3 with 5 and 6: 3 ways): 6 of 20.
// The counting table against every subset, enumerated: samples of 6 and 7 with ties.
TEST(mann_whitney, exact_p_matches_enumerating_every_subset) {
  const std::vector<double> a{1, 4, 4, 7, 9, 12}, b{2, 4, 5, 7, 8, 10, 11};
  const auto ranks = midranks(a, b);
  const double mean = 6.0 * 14 / 2;
  double observed = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    observed += ranks[i];
  std::size_t extreme = 0, total = 0;
  for (unsigned mask = 0; mask < (1u << 13); ++mask) {
    if (__builtin_popcount(mask) != 6) continue;
    double sum = 0;
    for (unsigned i = 0; i < 13; ++i)
      if (mask & (1u << i)) sum += ranks[i];
    ++total;
    extreme += std::fabs(sum - mean) >= std::fabs(observed - mean) - 1e-9;
  }
  EXPECT_DOUBLE_EQ(exact_two_sided_p(a, b),
                   static_cast<double>(extreme) / static_cast<double>(total));
}

TEST(mann_whitney, exact_p_with_ties) {
  const std::vector<double> a{1, 2, 2}, b{2, 3, 4};
  EXPECT_DOUBLE_EQ(exact_two_sided_p(a, b), 0.3);
}

// Same data: U = 1, mean 4.5, one tie group of 3 (t^3 - t = 24),
// var = 9/12 * (7 - 24/30) = 4.65, z = (3.5 - 0.5) / sqrt(4.65) = 1.39122, p = 0.164160.
TEST(mann_whitney, normal_p_with_tie_and_continuity_correction) {
  const std::vector<double> a{1, 2, 2}, b{2, 3, 4};
  EXPECT_NEAR(normal_two_sided_p(a, b), 0.1641597, 1e-6);
}

// 1..5 against 6..10: U = 0, var = 25 * 11 / 12, z = 12 / 4.78714 = 2.50672, p = 0.0121858.
TEST(mann_whitney, normal_p_without_ties) {
  const std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
  EXPECT_NEAR(normal_two_sided_p(a, b), 0.0121858, 1e-6);
}

TEST(mann_whitney, identical_values_give_p_one) {
  const std::vector<double> a{5, 5, 5, 5}, b{5, 5, 5, 5};
  EXPECT_DOUBLE_EQ(normal_two_sided_p(a, b), 1.0);
  EXPECT_DOUBLE_EQ(exact_two_sided_p(a, b), 1.0);
}

TEST(mann_whitney, u_counts_pairs_with_ties_as_half) {
  const std::vector<double> a{1, 2, 2}, b{2, 3, 4};
  const u_test_result r = mann_whitney_u(a, b, 0.05);
  EXPECT_DOUBLE_EQ(r.u_base, 1.0);
  EXPECT_DOUBLE_EQ(r.u_new, 8.0);
}

TEST(mann_whitney, says_too_few_samples_instead_of_guessing) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  const u_test_result r = mann_whitney_u(a, b, 0.05);
  EXPECT_TRUE(r.too_few_samples);
  EXPECT_EQ(r.method, u_method::none);
  EXPECT_FALSE(r.significant);
  // At alpha 0.2 the same samples can be tested, and are significant (p = 0.1).
  const u_test_result loose = mann_whitney_u(a, b, 0.2);
  EXPECT_FALSE(loose.too_few_samples);
  EXPECT_EQ(loose.method, u_method::exact);
  EXPECT_DOUBLE_EQ(loose.p, 0.1);
  EXPECT_TRUE(loose.significant);
}

TEST(mann_whitney, four_against_four_can_be_significant) {
  const std::vector<double> a{1, 2, 3, 4}, b{5, 6, 7, 8};
  const u_test_result r = mann_whitney_u(a, b, 0.05);
  EXPECT_FALSE(r.too_few_samples);
  EXPECT_NEAR(r.p, 2.0 / 70, 1e-12);
  EXPECT_TRUE(r.significant);
}

TEST(mann_whitney, large_samples_use_the_normal_approximation) {
  std::vector<double> a, b;
  for (int i = 0; i < 30; ++i) {
    a.push_back(100 + i % 7);
    b.push_back(100 + i % 7);
  }
  const u_test_result r = mann_whitney_u(a, b, 0.05);
  EXPECT_EQ(r.method, u_method::normal);
  EXPECT_GT(r.p, 0.9);
  EXPECT_FALSE(r.significant);
}

TEST(mann_whitney, ignores_non_finite_samples) {
  const std::vector<double> a{1, 2, NAN, 3, 4}, b{5, 6, 7, INFINITY, 8};
  const u_test_result r = mann_whitney_u(a, b, 0.05);
  EXPECT_EQ(r.n_base, 4u);
  EXPECT_EQ(r.n_new, 4u);
}

}  // namespace
}  // namespace gpubench::reports::compare

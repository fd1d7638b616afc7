#include "reports/compare/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpubench::reports::compare {

std::string to_string(u_method m) {
  switch (m) {
    case u_method::exact:
      return "exact";
    case u_method::normal:
      return "normal";
    case u_method::none:
      return "none";
  }
  return "none";
}

std::vector<double> midranks(std::span<const double> a, std::span<const double> b) {
  const std::size_t n = a.size() + b.size();
  // (value, position) pairs sort by value, then position: the order a stable sort would give.
  std::vector<std::pair<double, std::size_t>> order;
  order.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    order.emplace_back(i < a.size() ? a[i] : b[i - a.size()], i);
  std::sort(order.begin(), order.end());
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && order[j + 1].first == order[i].first)
      ++j;
    // Positions i..j (0-based) hold equal values: each gets the mean of ranks i+1..j+1.
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2.0;
    for (std::size_t k = i; k <= j; ++k)
      ranks[order[k].second] = rank;
    i = j + 1;
  }
  return ranks;
}

namespace {

double binomial(std::size_t n, std::size_t k) {
  k = std::min(k, n - k);
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i)
    c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
  return c;
}

std::vector<double> finite_only(std::span<const double> values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values)
    if (std::isfinite(v)) out.push_back(v);
  return out;
}

}  // namespace

double min_two_sided_p(std::size_t n1, std::size_t n2) {
  if (n1 == 0 || n2 == 0) return 1;
  return std::min(1.0, 2.0 / binomial(n1 + n2, n1));
}

namespace {

// The p-values from the midranks of both samples (mann_whitney_u ranks once for both); the
// first n1 ranks are the first sample's.
double exact_p_of_ranks(const std::vector<double>& ranks, std::size_t n1) {
  const std::size_t n = ranks.size();
  if (n1 == 0 || n1 == n) return 1;
  // Doubled midranks are integers, so the rank-sum distribution is a table of counts.
  std::vector<std::size_t> twice(n);
  for (std::size_t i = 0; i < n; ++i)
    twice[i] = static_cast<std::size_t>(std::lround(2 * ranks[i]));
  const std::size_t max_sum = std::accumulate(twice.begin(), twice.end(), std::size_t{0});
  // count[k][s]: subsets of size k of the ranks seen so far whose doubled sum is s.
  std::vector<std::vector<double>> count(n1 + 1, std::vector<double>(max_sum + 1, 0.0));
  count[0][0] = 1;
  // Only what can still reach a subset of n1 is counted (k >= n1 - ranks left), and a sum
  // never exceeds the ranks seen so far: a quarter of the full table's work.
  std::size_t seen = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = twice[i];
    seen += r;
    const std::size_t left = n - 1 - i;
    const std::size_t lowest = n1 > left ? n1 - left : 1;
    for (std::size_t k = std::min(n1, i + 1); k >= lowest && k >= 1; --k)
      for (std::size_t s = seen; s >= r; --s)
        count[k][s] += count[k - 1][s - r];
  }
  std::size_t observed = 0;
  for (std::size_t i = 0; i < n1; ++i)
    observed += twice[i];
  // The mean of the doubled rank sum, n1 (N + 1), is an integer: compare distances exactly.
  const auto mean = static_cast<long long>(n1 * (n + 1));
  const long long distance = std::llabs(static_cast<long long>(observed) - mean);
  double extreme = 0, total = 0;
  for (std::size_t s = 0; s <= max_sum; ++s) {
    total += count[n1][s];
    if (std::llabs(static_cast<long long>(s) - mean) >= distance) extreme += count[n1][s];
  }
  return std::min(1.0, extreme / total);
}

double normal_p_of_ranks(const std::vector<double>& ranks, std::size_t first) {
  if (first == 0 || first == ranks.size()) return 1;
  const auto n1 = static_cast<double>(first);
  const auto n = static_cast<double>(ranks.size());
  const double n2 = n - n1;
  double rank_sum = 0;
  for (std::size_t i = 0; i < first; ++i)
    rank_sum += ranks[i];
  const double u = rank_sum - n1 * (n1 + 1) / 2;

  std::vector<double> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  double tie_term = 0;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i])
      ++j;
    const auto t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) return 1;
  const double z = std::max(0.0, std::fabs(u - n1 * n2 / 2) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace

double exact_two_sided_p(std::span<const double> a, std::span<const double> b) {
  return exact_p_of_ranks(midranks(a, b), a.size());
}

double normal_two_sided_p(std::span<const double> a, std::span<const double> b) {
  return normal_p_of_ranks(midranks(a, b), a.size());
}

u_test_result mann_whitney_u(std::span<const double> base, std::span<const double> fresh,
                             double alpha) {
  const std::vector<double> a = finite_only(base);
  const std::vector<double> b = finite_only(fresh);
  u_test_result r;
  r.n_base = a.size();
  r.n_new = b.size();
  r.min_p = min_two_sided_p(a.size(), b.size());
  std::vector<double> ranks;
  if (!a.empty() && !b.empty()) {
    ranks = midranks(a, b);
    double rank_sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      rank_sum += ranks[i];
    const auto n1 = static_cast<double>(a.size());
    r.u_base = rank_sum - n1 * (n1 + 1) / 2;
    r.u_new = n1 * static_cast<double>(b.size()) - r.u_base;
  }
  r.too_few_samples = a.empty() || b.empty() || r.min_p > alpha;
  if (r.too_few_samples) return r;
  if (a.size() + b.size() <= exact_u_max_total) {
    r.method = u_method::exact;
    r.p = exact_p_of_ranks(ranks, a.size());
  } else {
    r.method = u_method::normal;
    r.p = normal_p_of_ranks(ranks, a.size());
  }
  r.significant = r.p < alpha;
  return r;
}

}  // namespace gpubench::reports::compare

#include "history/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/statistics.hpp"
#include "history/energy_split.hpp"
#include "history/t_test.hpp"

namespace gpubench::history {
namespace {

using index_list = std::vector<std::size_t>;

double median_of(std::span<const double> values) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return core::percentile_sorted(sorted, 0.5);
}

// The robust standard deviation (1.4826 times the median absolute deviation) of two segments'
// observations about their own medians: the spread a change is held against. Where more than
// half the values sit on one level the median deviation collapses (a token-bucket-shaped link
// gives a few exact rates: 0.02391, 0.02392, 0.0234 against 0.025, 0.02392, 0.02496 read as a
// certain 4 % step), so then the mean absolute deviation (1.2533 times, for normal noise) is
// the spread. On normal noise the two agree, and one outlier in a few runs moves the mean
// deviation less than five times: the robust figure stays.
double pooled_spread(std::span<const double> before, double before_median,
                     std::span<const double> after, double after_median) {
  std::vector<double> deviations;
  deviations.reserve(before.size() + after.size());
  for (const double v : before)
    deviations.push_back(std::abs(v - before_median));
  for (const double v : after)
    deviations.push_back(std::abs(v - after_median));
  double sum = 0.0;
  for (const double d : deviations)
    sum += d;
  const double mean_spread =
      deviations.empty() ? 0.0 : 1.2533 * sum / static_cast<double>(deviations.size());
  const double mad_spread = 1.4826 * median_of(deviations);
  return mad_spread < 0.2 * mean_spread ? mean_spread : mad_spread;
}

// The t-test's p-value between values[from, index) and values[index, to), each side's
// observations first pulled in to within clip times the pooled spread of their segment's median
// (a disturbed run weighs as a bad run, not as twenty: the mean a t-test compares is no robust
// statistic), then multiplied by the number of places the change could have been put in that
// stretch (Bonferroni): the t-test judges the split the energy statistic chose as the most
// unlike, and uncorrected it calls a series without a change changed in more than 1 % of series
// (docs/history.md "Method").
double split_p(std::span<const double> values, std::size_t from, std::size_t index, std::size_t to,
               const change_options& options) {
  if (to - from < 3) return 1.0;
  const auto before = values.subspan(from, index - from);
  const auto after = values.subspan(index, to - index);
  const double before_median = median_of(before);
  const double after_median = median_of(after);
  const double limit = options.clip * pooled_spread(before, before_median, after, after_median);
  const auto clipped = [&](std::span<const double> side, double median) {
    std::vector<double> out(side.begin(), side.end());
    if (limit > 0) {
      for (double& v : out)
        v = std::clamp(v, median - limit, median + limit);
    }
    return out;
  };
  const double raw = student_t_test(clipped(before, before_median), clipped(after, after_median)).p;
  const std::size_t places =
      to - from >= 2 * options.min_segment ? to - from - 2 * options.min_segment + 1 : 1;
  return std::min(1.0, raw * static_cast<double>(places));
}

// Recursive bisection of values[begin, end): the best split by the energy statistic, kept when
// the t-test between its two sides is significant, then each side on its own.
void bisect(std::span<const double> values, std::size_t begin, std::size_t end,
            const change_options& options, index_list& found) {
  const auto split = best_energy_split(values, begin, end, options.min_segment);
  if (!split) return;
  if (split_p(values, begin, split->index, end, options) > options.max_p) return;
  found.push_back(split->index);
  bisect(values, begin, split->index, options, found);
  bisect(values, split->index, end, options, found);
}

struct judged {
  change_point point;
  bool kept = false;
};

// A change judged between its neighbours: the t-test, the medians and both floors.
judged judge(std::span<const double> values, std::size_t from, std::size_t index, std::size_t to,
             const change_options& options) {
  const auto before = values.subspan(from, index - from);
  const auto after = values.subspan(index, to - index);
  judged j{{index, median_of(before), median_of(after), 0.0, 1.0}, false};
  auto& p = j.point;
  if (p.before_median != 0.0) {
    p.change = p.after_median / p.before_median - 1.0;
  } else if (p.after_median != 0.0) {
    p.change = std::copysign(std::numeric_limits<double>::infinity(), p.after_median);
  }
  p.p = split_p(values, from, index, to, options);
  const double step = std::abs(p.after_median - p.before_median);
  const double noise = pooled_spread(before, p.before_median, after, p.after_median);
  j.kept = before.size() >= options.min_segment && after.size() >= options.min_segment &&
           p.p <= options.max_p && std::abs(p.change) >= options.min_effect &&
           step >= options.noise_factor * noise;
  return j;
}

// Every candidate judged between its neighbours; the weakest that fails (the highest p, then
// the smallest change) is dropped and its two neighbours judged again, until all pass: a change
// is reported with the segments the report shows on each side of it.
std::vector<change_point> merge(std::span<const double> values, index_list candidates,
                                const change_options& options) {
  const auto judge_at = [&](std::size_t i) {
    const std::size_t from = i == 0 ? 0 : candidates[i - 1];
    const std::size_t to = i + 1 == candidates.size() ? values.size() : candidates[i + 1];
    return judge(values, from, candidates[i], to, options);
  };
  std::vector<judged> all;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    all.push_back(judge_at(i));
  while (true) {
    std::optional<std::size_t> weakest;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].kept) continue;
      const auto& p = all[i].point;
      if (!weakest || p.p > all[*weakest].point.p ||
          (p.p == all[*weakest].point.p &&
           std::abs(p.change) < std::abs(all[*weakest].point.change))) {
        weakest = i;
      }
    }
    if (!weakest) break;
    const auto at = static_cast<std::ptrdiff_t>(*weakest);
    candidates.erase(candidates.begin() + at);
    all.erase(all.begin() + at);
    if (*weakest > 0) all[*weakest - 1] = judge_at(*weakest - 1);
    if (*weakest < all.size()) all[*weakest] = judge_at(*weakest);
  }
  std::vector<change_point> points;
  for (const auto& j : all)
    points.push_back(j.point);
  return points;
}

}  // namespace

void check_options(const change_options& options) {
  if (!(options.max_p > 0.0 && options.max_p <= 1.0)) {
    throw core::usage_error(fmt::format(
        "change points: the p-value limit must be within (0, 1], got {}", options.max_p));
  }
  if (!(options.min_effect >= 0.0) || std::isinf(options.min_effect)) {
    throw core::usage_error("change points: the effect floor must be a finite number >= 0");
  }
  if (!(options.noise_factor >= 0.0) || std::isinf(options.noise_factor)) {
    throw core::usage_error("change points: the noise factor must be a finite number >= 0");
  }
  if (!(options.clip >= 0.0) || std::isinf(options.clip)) {
    throw core::usage_error("change points: the clip factor must be a finite number >= 0");
  }
  if (options.min_segment < 2) {
    throw core::usage_error("change points: a segment needs at least 2 observations, got " +
                            std::to_string(options.min_segment));
  }
  if (options.window < 2 * options.min_segment) {
    throw core::usage_error("change points: the window must hold two segments (" +
                            std::to_string(2 * options.min_segment) + " observations), got " +
                            std::to_string(options.window));
  }
}

std::vector<change_point> find_change_points(std::span<const double> values,
                                             const change_options& options) {
  check_options(options);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw core::input_error("change points: observation " + std::to_string(i + 1) +
                              " is not a finite number");
    }
  }
  // Windows overlapping by half, the last one ending at the series' end; each is bisected.
  index_list candidates;
  for (std::size_t begin = 0;; begin += options.window / 2) {
    const std::size_t end = std::min(begin + options.window, values.size());
    bisect(values, begin, end, options, candidates);
    if (end == values.size()) break;
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  return merge(values, std::move(candidates), options);
}

}  // namespace gpubench::history

#include "reports/compare/comparison.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "reports/compare/sign_test.hpp"

namespace gpubench::reports::compare {

std::string to_string(verdict v) {
  switch (v) {
    case verdict::faster:
      return "FASTER";
    case verdict::slower:
      return "SLOWER";
    case verdict::same:
      return "SAME";
    case verdict::noisy:
      return "NOISY";
    case verdict::added:
      return "ADDED";
    case verdict::removed:
      return "REMOVED";
    case verdict::lost:
      return "LOST";
    case verdict::unmeasured:
      return "UNMEASURED";
  }
  return "UNMEASURED";
}

std::string to_string(row_basis b) {
  return b == row_basis::reference ? "reference" : "baseline";
}

double thresholds::for_benchmark(const std::string& id) const {
  if (auto it = per_benchmark.find(id); it != per_benchmark.end()) return it->second;
  std::size_t best_length = 0;
  double best = global;
  for (const auto& [key, value] : per_benchmark) {
    if (key.empty() || key.back() != '*') continue;
    const std::string prefix = key.substr(0, key.size() - 1);
    if (id.rfind(prefix, 0) == 0 && prefix.size() >= best_length) {
      best_length = prefix.size();
      best = value;
    }
  }
  return best;
}

bool comparison::regressed() const {
  return regressions() > 0;
}

std::size_t comparison::count(verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [v](const auto& r) { return r.result == v; }));
}

std::size_t comparison::regressions() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.regression; }));
}

namespace {

std::string case_key(const core::case_result& c) {
  return c.benchmark + " " + c.params.dump();
}

bool has_result(const core::case_result& c) {
  return c.status == core::case_status::ok && !c.points.empty();
}

std::string status_note(const std::string& side, const core::case_result& c) {
  if (c.status == core::case_status::ok) return side + " has no points";
  return fmt::format("{} {}: {}", side, core::to_string(c.status), c.reason);
}

// One case of each file per key; a file holding a case twice is ambiguous input.
std::map<std::string, std::size_t> index_cases(const core::result_file& file,
                                               const std::string& name) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < file.results.size(); ++i) {
    auto [it, inserted] = index.emplace(case_key(file.results[i]), i);
    if (!inserted)
      throw core::input_error(fmt::format(
          "{}: results[{}] and results[{}] are the same case ({} {}): cannot tell "
          "which to compare",
          name, it->second, i, file.results[i].benchmark, file.results[i].params.dump()));
  }
  return index;
}

comparison_row make_row(const core::case_result& shape, const core::point_result* point) {
  comparison_row row;
  row.benchmark = shape.benchmark;
  row.params = shape.params;
  if (point) row.bytes = point->bytes;
  row.metric = shape.metric;
  row.unit = shape.unit;
  row.better = shape.better;
  return row;
}

const core::point_result* find_point(const core::case_result& c, std::uint64_t bytes) {
  for (const auto& p : c.points)
    if (p.bytes == bytes) return &p;
  return nullptr;
}

std::string too_few_note(const u_test_result& t, double alpha) {
  if (t.n_base == 0 || t.n_new == 0)
    return fmt::format("no raw samples to test (n = {} and {})", t.n_base, t.n_new);
  return fmt::format(
      "too few samples for the U test: n = {} and {} cannot reach p < {} (smallest possible p "
      "{:.3g})",
      t.n_base, t.n_new, alpha, t.min_p);
}

// Both sides measured this point: relative change, U test, verdict.
void judge(comparison_row& row, const core::point_result& base, const core::point_result& fresh,
           const compare_options& options) {
  row.base_value = base.stats.median;
  row.new_value = fresh.stats.median;
  row.threshold = options.threshold.for_benchmark(row.benchmark);
  // An imported point is often the one figure its tool printed: nothing to test it with, and
  // saying so beats a U test on one value that can only come out "too few samples".
  const bool one_value = base.samples.size() < 2 || fresh.samples.size() < 2;
  row.one_value = one_value;
  if (!one_value) row.test = mann_whitney_u(base.samples, fresh.samples, options.alpha);
  const double b = base.stats.median, n = fresh.stats.median;
  if (!std::isfinite(b) || !std::isfinite(n) || b == 0) {
    row.result = verdict::noisy;
    row.note = fmt::format("no relative change: medians {} and {}", b, n);
    return;
  }
  const double sign = row.better == "lower" ? -1.0 : 1.0;
  row.ratio = n / b;
  row.change = sign * (n - b) / b;
  const double change = *row.change;
  if (std::fabs(change) <= row.threshold) {
    row.result = verdict::same;
    if (one_value) row.note = "one value, no significance test";
    return;
  }
  if (one_value) {
    // Judged with the rest of its sweep once every row is known (judge_one_value_sweeps).
    row.result = verdict::noisy;
    row.note = fmt::format("one value, no significance test ({} and {} values)",
                           base.samples.size(), fresh.samples.size());
    return;
  }
  const u_test_result& t = *row.test;
  if (t.too_few_samples) {
    row.result = verdict::noisy;
    row.note = too_few_note(t, options.alpha);
    return;
  }
  if (!t.significant) {
    row.result = verdict::noisy;
    row.note = fmt::format("not significant: p = {:.3g} >= alpha {}", t.p, options.alpha);
    return;
  }
  // The test is two-sided: the samples must also have moved the way the medians did.
  const double half = static_cast<double>(t.n_base) * static_cast<double>(t.n_new) / 2;
  const bool new_values_larger = t.u_new > half;
  const bool new_median_larger = n > b;
  if (new_values_larger != new_median_larger) {
    row.result = verdict::noisy;
    row.note = "the samples moved the other way than the medians";
    return;
  }
  row.result = change > 0 ? verdict::faster : verdict::slower;
  row.regression = row.result == verdict::slower;
}

void compare_case(const core::case_result& base, const core::case_result& fresh,
                  const compare_options& options, std::vector<comparison_row>& rows) {
  if (has_result(base) && has_result(fresh)) {
    if (base.unit != fresh.unit || base.better != fresh.better) {
      comparison_row row = make_row(fresh, nullptr);
      row.result = verdict::unmeasured;
      row.note =
          fmt::format("not comparable: BASE is in {} ({} is better), NEW in {} ({} is better)",
                      base.unit, base.better, fresh.unit, fresh.better);
      rows.push_back(std::move(row));
      return;
    }
    for (const auto& bp : base.points) {
      comparison_row row = make_row(fresh, &bp);
      if (const auto* np = find_point(fresh, bp.bytes)) {
        judge(row, bp, *np, options);
      } else {
        row.base_value = bp.stats.median;
        row.result = verdict::removed;
        row.regression = options.fail_on_removed;
        row.note = "size only in BASE";
      }
      rows.push_back(std::move(row));
    }
    for (const auto& np : fresh.points) {
      if (find_point(base, np.bytes)) continue;
      comparison_row row = make_row(fresh, &np);
      row.new_value = np.stats.median;
      row.result = verdict::added;
      row.note = "size only in NEW";
      rows.push_back(std::move(row));
    }
  } else if (has_result(base)) {
    for (const auto& bp : base.points) {
      comparison_row row = make_row(base, &bp);
      row.base_value = bp.stats.median;
      row.result = verdict::lost;
      row.regression = true;
      row.note = status_note("NEW", fresh);
      rows.push_back(std::move(row));
    }
  } else if (has_result(fresh)) {
    for (const auto& np : fresh.points) {
      comparison_row row = make_row(fresh, &np);
      row.new_value = np.stats.median;
      row.result = verdict::added;
      row.note = status_note("BASE", base);
      rows.push_back(std::move(row));
    }
  } else {
    comparison_row row = make_row(fresh, nullptr);
    row.result = verdict::unmeasured;
    row.note = status_note("BASE", base) + "; " + status_note("NEW", fresh);
    rows.push_back(std::move(row));
  }
}

void one_sided(const core::case_result& c, verdict v, const std::string& side, bool regression,
               std::vector<comparison_row>& rows) {
  const std::string where = "case only in " + side;
  if (!has_result(c)) {
    comparison_row row = make_row(c, nullptr);
    row.result = v;
    row.note = where + " (" + status_note(side, c) + ")";
    rows.push_back(std::move(row));
    return;
  }
  for (const auto& p : c.points) {
    comparison_row row = make_row(c, &p);
    (v == verdict::removed ? row.base_value : row.new_value) = p.stats.median;
    row.result = v;
    row.regression = regression;
    row.note = where;
    rows.push_back(std::move(row));
  }
}

}  // namespace

comparison compare_results(const core::result_file& base, const core::result_file& fresh,
                           const compare_options& options, std::string base_name,
                           std::string new_name) {
  comparison out;
  out.base_name = std::move(base_name);
  out.new_name = std::move(new_name);
  out.options = options;
  const std::pair<const core::result_file*, std::string> inputs[] = {{&base, out.base_name},
                                                                     {&fresh, out.new_name}};
  for (const auto& [file, name] : inputs)
    if (file->run.status != core::run_status::complete)
      out.warnings.push_back(fmt::format(
          "{}: the run is {}, not complete: what it did not reach shows as REMOVED or ADDED", name,
          core::to_string(file->run.status)));
  index_cases(base, out.base_name);
  const auto fresh_index = index_cases(fresh, out.new_name);
  std::vector<bool> matched(fresh.results.size(), false);
  for (const auto& b : base.results) {
    auto it = fresh_index.find(case_key(b));
    if (it == fresh_index.end()) {
      one_sided(b, verdict::removed, "BASE", options.fail_on_removed, out.rows);
      continue;
    }
    matched[it->second] = true;
    compare_case(b, fresh.results[it->second], options, out.rows);
  }
  for (std::size_t i = 0; i < fresh.results.size(); ++i)
    if (!matched[i]) one_sided(fresh.results[i], verdict::added, "NEW", false, out.rows);
  judge_one_value_sweeps(out.rows, options);
  return out;
}

int severity(const comparison_row& row) {
  if (row.regression) return 0;
  switch (row.result) {
    case verdict::slower:
    case verdict::lost:
      return 0;
    case verdict::noisy:
      return 1;
    case verdict::removed:
      return 2;
    case verdict::added:
      return 3;
    case verdict::faster:
      return 4;
    case verdict::unmeasured:
      return 5;
    case verdict::same:
      return 6;
  }
  return 6;
}

std::vector<comparison_row> by_severity(const std::vector<comparison_row>& rows) {
  std::vector<comparison_row> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return severity(a) < severity(b); });
  return sorted;
}

std::string row_label(const comparison_row& row) {
  std::string label = row.benchmark;
  if (!row.params.empty()) {
    std::string params;
    for (const auto& [key, value] : row.params.items()) {
      if (!params.empty()) params += ", ";
      params += key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    }
    label += " {" + params + "}";
  }
  if (row.bytes) label += " @ " + core::format_bytes(*row.bytes);
  return label;
}

}  // namespace gpubench::reports::compare

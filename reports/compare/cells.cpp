#include "reports/compare/cells.hpp"

#include <fmt/format.h>
#include <cmath>

namespace gpubench::reports::compare::cells {

std::string value(const std::optional<double>& v, const std::string& unit) {
  if (!v || !std::isfinite(*v)) return "-";
  return fmt::format("{:.4g} {}", *v, unit);
}

std::string change(const comparison_row& row) {
  if (!row.ratio || !std::isfinite(*row.ratio)) return "-";
  return fmt::format("{:+.1f}%", (*row.ratio - 1) * 100);
}

std::string test(const comparison_row& row) {
  if (row.one_value && row.sign_p) return fmt::format("sign p={:.2g}", *row.sign_p);
  if (row.one_value) return "one value";
  if (!row.test) return "-";
  if (row.test->too_few_samples) return "too few samples";
  return fmt::format("p={:.2g} {}", row.test->p, to_string(row.test->method));
}

std::string bound(const comparison_row& row) {
  if (row.reference) {
    const auto side = [](const std::optional<double>& b) {
      return b ? fmt::format("{:.4g}", *b) : std::string("-");
    };
    return fmt::format("[{}, {}] {}", side(row.reference->lower), side(row.reference->upper),
                       row.unit);
  }
  if (!row.ratio) return "-";
  return fmt::format("±{:g}%", row.threshold * 100);
}

std::string counts(const comparison& c) {
  static constexpr verdict order[] = {verdict::slower,     verdict::lost,  verdict::noisy,
                                      verdict::removed,    verdict::added, verdict::faster,
                                      verdict::unmeasured, verdict::same};
  std::string out;
  for (verdict v : order)
    if (const std::size_t n = c.count(v); n > 0)
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, to_string(v));
  return out.empty() ? "nothing to compare" : out;
}

std::string headline(const comparison& c) {
  const std::size_t n = c.regressions();
  if (n == 0) return "PASS: no regression";
  return fmt::format("FAIL: {} regression{}", n, n == 1 ? "" : "s");
}

}  // namespace gpubench::reports::compare::cells

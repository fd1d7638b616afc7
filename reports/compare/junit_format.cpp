#include <fmt/format.h>

#include "core/markup_escape.hpp"
#include "reports/compare/cells.hpp"
#include "reports/compare/formats.hpp"

namespace gpubench::reports::compare {

namespace {

std::string details(const comparison_row& r) {
  return fmt::format("{}: base {}, new {}, change {}, bound {}, test {}{}", to_string(r.result),
                     cells::value(r.base_value, r.unit), cells::value(r.new_value, r.unit),
                     cells::change(r), cells::bound(r), cells::test(r),
                     r.note.empty() ? "" : "; " + r.note);
}

bool not_compared(const comparison_row& r) {
  return !r.regression && (r.result == verdict::added || r.result == verdict::removed ||
                           r.result == verdict::unmeasured);
}

}  // namespace

std::string format_junit(const comparison& c) {
  std::size_t skipped = 0;
  for (const auto& r : c.rows)
    skipped += not_compared(r) ? 1 : 0;
  const std::size_t tests = c.rows.size(), failures = c.regressions();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"gpubench compare\" tests=\"{}\" failures=\"{}\" "
      "skipped=\"{}\">\n",
      tests, failures, skipped);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
      core::markup_escape(c.base_name + " vs " + c.new_name), tests, failures, skipped);
  for (const auto& r : c.rows) {
    std::string name = row_label(r);
    if (r.basis == row_basis::reference) name += " [reference]";
    out += fmt::format("    <testcase classname=\"gpubench.{}\" name=\"{}\">\n",
                       core::markup_escape(r.benchmark), core::markup_escape(name));
    const std::string text = core::markup_escape(details(r));
    if (r.regression)
      out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                         to_string(r.result), text, text);
    else if (not_compared(r))
      out += fmt::format("      <skipped message=\"{}\"/>\n", text);
    else
      out += fmt::format("      <system-out>{}</system-out>\n", text);
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace gpubench::reports::compare

#include <fmt/format.h>
#include <vector>

#include "reports/compare/cells.hpp"
#include "reports/compare/formats.hpp"

namespace gpubench::reports::compare {

namespace {

// A table cell must not break the row: pipes escaped, line breaks flattened.
std::string cell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '\n' || ch == '\r')
      out += ' ';
    else
      out += ch;
  }
  return out;
}

std::string table(const std::vector<const comparison_row*>& rows) {
  std::string out =
      "| Verdict | Case | Base | New | Change | Bound | Test | Note |\n"
      "|---|---|---:|---:|---:|---|---|---|\n";
  for (const auto* r : rows) {
    const std::string verdict_text =
        r->regression ? "**" + to_string(r->result) + "**" : to_string(r->result);
    out += fmt::format("| {} | `{}` | {} | {} | {} | {} | {} | {} |\n", verdict_text,
                       cell(row_label(*r)), cell(cells::value(r->base_value, r->unit)),
                       cell(cells::value(r->new_value, r->unit)), cell(cells::change(*r)),
                       cell(cells::bound(*r)), cell(cells::test(*r)), cell(r->note));
  }
  return out;
}

}  // namespace

std::string format_markdown(const comparison& c) {
  std::string out = fmt::format("### gpubench compare: {}\n\n", cells::headline(c));
  out += fmt::format("Base `{}`, new `{}`; threshold {:g}%, alpha {:g}", cell(c.base_name),
                     cell(c.new_name), c.options.threshold.global * 100, c.options.alpha);
  for (const auto& [id, t] : c.options.threshold.per_benchmark)
    out += fmt::format("; `{}` {:g}%", id, t * 100);
  out += ".\n\n";
  for (const auto& w : c.warnings)
    out += fmt::format("> **Warning:** {}\n\n", cell(w));
  out += fmt::format("{}\n\n", cells::counts(c));

  const std::vector<comparison_row> rows = by_severity(c.rows);
  std::vector<const comparison_row*> notable, quiet;
  for (const auto& r : rows)
    (r.result == verdict::same || r.result == verdict::unmeasured ? quiet : notable).push_back(&r);
  if (!notable.empty()) out += table(notable) + "\n";
  if (!quiet.empty())
    out +=
        fmt::format("<details><summary>{} unchanged or not measured</summary>\n\n{}\n</details>\n",
                    quiet.size(), table(quiet));
  return out;
}

}  // namespace gpubench::reports::compare

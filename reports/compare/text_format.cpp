#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/text_table.hpp"
#include "reports/compare/cells.hpp"
#include "reports/compare/formats.hpp"

namespace gpubench::reports::compare {

output_format parse_output_format(std::string_view name) {
  if (name == "text") return output_format::text;
  if (name == "md") return output_format::md;
  if (name == "json") return output_format::json;
  if (name == "junit") return output_format::junit;
  throw core::usage_error(
      fmt::format("--format: '{}' is not a format (text, md, json or junit)", name));
}

std::string render(const comparison& c, output_format format, bool color) {
  switch (format) {
    case output_format::text:
      return format_text(c, color);
    case output_format::md:
      return format_markdown(c);
    case output_format::json:
      return format_json(c);
    case output_format::junit:
      return format_junit(c);
  }
  return format_text(c, color);
}

namespace {

const char* colour_of(const comparison_row& row) {
  if (row.regression) return "\033[1;31m";  // bold red
  switch (row.result) {
    case verdict::faster:
      return "\033[32m";
    case verdict::noisy:
      return "\033[33m";
    case verdict::added:
    case verdict::removed:
    case verdict::unmeasured:
      return "\033[36m";
    default:
      return "";
  }
}

}  // namespace

std::string format_text(const comparison& c, bool color) {
  std::string out = fmt::format("gpubench compare: {}\n", cells::headline(c));
  out += fmt::format("  base {}, new {}; threshold {:g}%, alpha {:g}\n", c.base_name, c.new_name,
                     c.options.threshold.global * 100, c.options.alpha);
  for (const auto& [id, t] : c.options.threshold.per_benchmark)
    out += fmt::format("  threshold {:g}% for {}\n", t * 100, id);
  for (const auto& w : c.warnings)
    out += fmt::format("  warning: {}\n", w);
  out += fmt::format("  {}\n\n", cells::counts(c));
  if (c.rows.empty()) return out;

  // The note runs free after the last column, so a long one does not widen the table.
  core::text_table_style style;
  style.trim = true;
  core::text_table table(
      {{"VERDICT"}, {"CASE"}, {"BASE"}, {"NEW"}, {"CHANGE"}, {"BOUND"}, {"TEST"}, {""}}, style);
  for (const auto& r : by_severity(c.rows)) {
    table.add_row({to_string(r.result), row_label(r), cells::value(r.base_value, r.unit),
                   cells::value(r.new_value, r.unit), cells::change(r), cells::bound(r),
                   cells::test(r), r.note});
    if (color && *colour_of(r)) table.wrap_cell(0, colour_of(r), "\033[0m");
  }
  out += table.render();
  return out;
}

}  // namespace gpubench::reports::compare

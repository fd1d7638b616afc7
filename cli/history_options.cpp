#include "cli/history_options.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace gpubench::cli {

void add_change_options(CLI::App& sub, change_cli_options& o) {
  sub.add_option(
      "--max-p", o.max_p,
      fmt::format("Significance a change needs, the t-test's p (default {:g})", o.max_p));
  sub.add_option(
      "--min-effect", o.min_effect,
      fmt::format("Smallest relative change of the median reported (default {:g})", o.min_effect));
  sub.add_option("--min-segment", o.min_segment,
                 fmt::format("Fewest runs on each side of a change (default {})", o.min_segment));
  sub.add_option("--fdr", o.fdr,
                 fmt::format("False discovery rate over the query's series, Benjamini-Hochberg "
                             "(default {:g})",
                             o.fdr));
}

history::analysis_options analysis_options_of(const change_cli_options& o) {
  const auto in_unit = [](const char* name, double v) {
    if (!(v > 0 && v < 1))
      throw core::usage_error(fmt::format("{}: {} is not between 0 and 1", name, v));
  };
  in_unit("--max-p", o.max_p);
  in_unit("--fdr", o.fdr);
  if (!(o.min_effect >= 0 && o.min_effect < 1))
    throw core::usage_error(fmt::format("--min-effect: {} is not in [0, 1)", o.min_effect));
  if (o.min_segment < 2) throw core::usage_error("--min-segment: at least 2 runs");
  history::analysis_options a;
  a.change.max_p = o.max_p;
  a.change.min_effect = o.min_effect;
  a.change.min_segment = o.min_segment;
  a.fdr = o.fdr;
  return a;
}

}  // namespace gpubench::cli

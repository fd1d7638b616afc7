// The method's parameters as `history` and `report --history` take them (docs/history.md
// "The method"): --max-p, --min-effect, --min-segment, --fdr.
#pragma once

#include <CLI/CLI.hpp>

#include "history/analysis.hpp"

namespace gpubench::cli {

struct change_cli_options {
  double max_p = history::change_options{}.max_p;
  double min_effect = history::change_options{}.min_effect;
  std::size_t min_segment = history::change_options{}.min_segment;
  double fdr = history::analysis_options{}.fdr;
};

void add_change_options(CLI::App& sub, change_cli_options& o);

// Throws core::usage_error for values out of range.
history::analysis_options analysis_options_of(const change_cli_options& o);

}  // namespace gpubench::cli

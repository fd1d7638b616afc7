// gpubench compare --history STORE NEW.json: NEW judged against its series' latest segment in
// the store rather than one base file (docs/history.md "The gate"); compare's verdicts, formats
// and exit codes.
#pragma once

#include <string>

#include "core/result.hpp"
#include "history/gate.hpp"
#include "reports/compare/comparison.hpp"

namespace gpubench::cli {

struct history_gate_options {
  std::string store;
  reports::compare::thresholds threshold;
  double alpha = 0.05;
  std::size_t min_history = 5;
};

// The comparison of `fresh` (read from `new_name`) against the store. NEW's own run, when the
// store holds it already (`run` adds every run), is left out of its history.
reports::compare::comparison compare_with_history(const core::result_file& fresh,
                                                  const std::string& new_name,
                                                  const history_gate_options& options);

}  // namespace gpubench::cli

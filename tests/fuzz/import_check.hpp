// What every importer's fuzz target checks of a file it accepted: the result file it made is
// one gpubench itself reads back (numbers finite, fields where the reader wants them), so
// report and compare can take any import the parser lets through.
#pragma once

#include "core/errors.hpp"
#include "core/result.hpp"
#include "core/result_json.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace gpubench::fuzz {

inline void check_import(const core::result_file& f) {
  try {
    const auto back = core::result_from_json(core::to_json(f), "fuzz");
    require(back.results.size() == f.results.size(), "an import changed size when read back");
  } catch (const core::input_error&) {
    require(false, "an accepted import is a result file gpubench refuses to read");
  }
  for (const auto& c : f.results)
    require(c.imported.has_value(), "an imported case without its source");
}

}  // namespace gpubench::fuzz

// Fuzzes the importer of nvbandwidth's text output (reports/import/nvbandwidth_text.hpp): any input
// is refused with core::input_error (naming file and line) or accepted as a result file gpubench
// reads back; any other exception, a crash, a leak or undefined behaviour is a finding.
#include <string_view>

#include "core/errors.hpp"
#include "reports/import/nvbandwidth_text.hpp"
#include "tests/fuzz/import_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpubench::reports::import::import_options o{"fuzz.txt", size % 2 ? "all_reduce" : ""};
  try {
    gpubench::fuzz::check_import(gpubench::reports::import::parse_nvbandwidth_text(text, o));
  } catch (const gpubench::core::input_error&) {
  }
  return 0;
}

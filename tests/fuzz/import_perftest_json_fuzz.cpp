// Fuzzes the importer of perftest's JSON output (--out_json, reports/import/perftest_json.hpp),
// its repair of the invalid JSON perftest writes included: any input is refused with
// core::input_error or accepted as a result file gpubench reads back; any other exception, a
// crash, a leak or undefined behaviour is a finding.
#include <string_view>

#include "core/errors.hpp"
#include "reports/import/perftest_json.hpp"
#include "tests/fuzz/import_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpubench::reports::import::import_options o{"fuzz.json", ""};
  try {
    gpubench::fuzz::check_import(gpubench::reports::import::parse_perftest_json(text, o));
  } catch (const gpubench::core::input_error&) {
  }
  return 0;
}

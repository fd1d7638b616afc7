// Fuzzes the importer of nccl-tests' JSON output (-J, reports/import/nccl_tests_json.hpp), behind
// the JSON reader the importers share (json_text.hpp): any input is refused with core::input_error
// or accepted as a result file gpubench reads back; any other exception, a crash, a leak or
// undefined behaviour is a finding.
#include <string_view>

#include "core/errors.hpp"
#include "reports/import/json_text.hpp"
#include "reports/import/nccl_tests_json.hpp"
#include "tests/fuzz/import_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpubench::reports::import::import_options o{"fuzz.json", size % 2 ? "all_reduce" : ""};
  try {
    const auto j = gpubench::reports::import::parse_json_text(text, o);
    gpubench::fuzz::check_import(gpubench::reports::import::parse_nccl_tests_json(j, o));
  } catch (const gpubench::core::input_error&) {
  }
  return 0;
}

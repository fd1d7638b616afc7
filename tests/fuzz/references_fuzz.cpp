// Fuzzes the reader of `compare --references` files: reports::compare::read_reference_file
// (reports/compare/references.*) on the input as a file. Anything it cannot take must be
// refused with core::input_error naming the file and the field; any other exception, a crash,
// a leak or undefined behaviour is a finding.
#include "core/errors.hpp"
#include "reports/compare/references.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gpubench::fuzz::memory_file file(gpubench::fuzz::bytes_of(data, size));
  try {
    gpubench::reports::compare::read_reference_file(file.path());
  } catch (const gpubench::core::input_error&) {
  }
  return 0;
}

// Reference files (gpubench.references/1): per system, expected values with bounds for
// benchmark cases, in the spirit of ReFrame's references. Reading validates every entry.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "reports/compare/comparison.hpp"

namespace gpubench::reports::compare {

inline constexpr const char* references_schema_id = "gpubench.references/1";

struct reference_entry {
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();  // a case matches when it has all of these
  std::optional<std::uint64_t> bytes;                // none: every size of the case
  std::string unit;                                  // must be the case's unit
  double expected = 0;
  std::optional<double> lower;  // absolute, in `unit`; at least one of lower/upper is set
  std::optional<double> upper;
  std::string where;  // "refs.json: systems[0].references[2]", for messages
};

struct reference_system {
  std::string label;               // chosen with --system LABEL
  std::vector<std::string> hosts;  // shell patterns matched against the result's system.host
  std::vector<reference_entry> references;
};

struct reference_file {
  std::vector<reference_system> systems;
};

// Validates and converts; throws core::input_error prefixed with `origin` and the field.
reference_file references_from_json(const nlohmann::json& j, const std::string& origin);

// Reads and validates; throws core::input_error naming the file.
reference_file read_reference_file(const std::filesystem::path& path);

// The system entry for a run: the one labelled `label` when given, else the first whose host
// patterns match `host`. Throws core::input_error listing what is available when none does.
const reference_system& select_system(const reference_file& refs, const std::string& host,
                                      const std::optional<std::string>& label,
                                      const std::string& origin);

// Checks every entry of `system` against the matching points of `fresh`: a median outside
// [lower, upper] fails the gate (on either side, as a too-good number is as suspect as a bad
// one); a matching case skipped or failed is LOST; an entry nothing matches is REMOVED.
// Throws core::input_error when an entry's unit differs from the case's.
std::vector<comparison_row> check_references(const reference_system& system,
                                             const core::result_file& fresh,
                                             const compare_options& options);

}  // namespace gpubench::reports::compare

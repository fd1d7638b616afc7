#include "cli/store_location.hpp"

#include <exception>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "history/database.hpp"
#include "history/store.hpp"

namespace gpubench::cli {

void add_store_option(CLI::App& sub, std::string& store) {
  sub.add_option("--store", store,
                 fmt::format("The results store: an SQLite file, or postgresql://... for a "
                             "shared PostgreSQL (default {})",
                             default_store));
}

void require_store(const std::string& location) {
  if (history::is_postgresql(location) || std::filesystem::exists(location)) return;
  throw core::usage_error(fmt::format(
      "no results store at {} (`run` and `store add` create one; --store names another)",
      location));
}

std::string run_store_location(const std::string& option, const std::filesystem::path& out) {
  if (!option.empty()) return option;
  return (out.parent_path() / "gpubench.db").string();
}

int store_run_result(const std::string& location, const std::filesystem::path& out, int code,
                     bool named) {
  if (code == 130 || !std::filesystem::exists(out)) return code;
  try {
    history::store s(location);
    const auto added = s.add(core::read_result_file(out), out.string());
    fmt::print("# stored: {} points of run {} in {}\n", added.points, added.run_id, s.describe());
    return code;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpubench: {}storing the result in {}: {} (the result file {} is kept{})\n",
               named ? "" : "warning: ", history::printable_location(location), e.what(),
               out.string(), named ? "" : "; --store names another store, --no-store skips it");
    return named && code == 0 ? 1 : code;
  }
}

}  // namespace gpubench::cli

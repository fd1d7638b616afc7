// Where the results store is (docs/history.md): `--store PATH|postgresql://...`, by default
// results/gpubench.db, and for `run` gpubench.db beside its result file. `run` adds its result
// there unless `--no-store`.
#pragma once

#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

namespace gpubench::cli {

inline constexpr const char* default_store = "results/gpubench.db";

// Adds `--store` to a subcommand that reads or writes the store.
void add_store_option(CLI::App& sub, std::string& store);

// For the commands that read a store (history, compare --history, report --history, store
// info): an SQLite file that does not exist is a usage error naming it, not a new empty store.
void require_store(const std::string& location);

// The store a run adds its result to: `option` when given, else gpubench.db beside `out`.
std::string run_store_location(const std::string& option, const std::filesystem::path& out);

// Adds the result file `out` of a run that ended with `code` to the store at `location`, and
// says so on stdout. An interrupted run (130) is not stored. A store that fails is said on
// stderr; when the user `named` it (--store), a run that would end 0 ends 1, while the default
// store's failure (a file system without the locks SQLite needs, a read-only folder) is a
// warning that leaves the run's code alone. The result file is kept either way.
int store_run_result(const std::string& location, const std::filesystem::path& out, int code,
                     bool named);

}  // namespace gpubench::cli

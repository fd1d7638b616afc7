// The SQLite backend of history::database: one file, written by many processes at once (WAL,
// a busy timeout, BEGIN IMMEDIATE for writes).
#pragma once

#include <memory>
#include <string>

#include "history/database.hpp"

namespace gpubench::history {

// How long a writer waits for another to finish before it gives up with an error.
inline constexpr int sqlite_busy_timeout_ms = 60000;

std::unique_ptr<database> open_sqlite(const std::string& path);

}  // namespace gpubench::history

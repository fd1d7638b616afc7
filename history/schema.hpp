// The store's tables, their version and the migrations between versions. The same SQL serves
// SQLite and PostgreSQL. A store whose version is newer than this gpubench knows is refused.
#pragma once

#include "history/database.hpp"

namespace gpubench::history {

// 1: runs and their points. 2: the detail behind each fingerprint (what an event changed).
inline constexpr int schema_version = 2;

// Creates the tables of an empty store, or migrates an older one, up to `target` (tests build
// stores of older versions with it), in one write transaction. Throws core::input_error when
// the store's version is newer than `target`, naming the gpubench that wrote it.
void prepare_schema(database& db, int target = schema_version);

// The version of the store's tables; 0 for an empty store.
int stored_schema_version(database& db);

}  // namespace gpubench::history

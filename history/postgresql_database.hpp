// The PostgreSQL backend of history::database (libpq), for a store a fleet shares. Builds
// without libpq have the same function, which says why it cannot connect.
#pragma once

#include <memory>
#include <string>

#include "history/database.hpp"

namespace gpubench::history {

// Seconds to connect, and to wait for another writer's lock, unless the URI says otherwise.
inline constexpr int postgresql_connect_timeout_s = 10;
inline constexpr int postgresql_lock_timeout_s = 60;

// `uri`: a libpq connection URI, postgresql://[user@][host][:port]/dbname[?param=value...].
std::unique_ptr<database> open_postgresql(const std::string& uri);

}  // namespace gpubench::history

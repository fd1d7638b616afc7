// open_postgresql in a build without libpq: says why, and what to install.
#include "core/errors.hpp"
#include "history/postgresql_database.hpp"

namespace gpubench::history {

std::unique_ptr<database> open_postgresql(const std::string&) {
  throw core::usage_error(
      "--store postgresql://...: this gpubench was built without PostgreSQL (libpq not found at "
      "configure time; Debian: libpq-dev)");
}

}  // namespace gpubench::history

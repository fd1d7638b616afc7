#include "history/database.hpp"

#include "history/postgresql_database.hpp"
#include "history/sqlite_database.hpp"

namespace gpubench::history {

bool is_postgresql(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string printable_location(const std::string& location) {
  const auto scheme = location.find("://");
  const auto at = location.find('@');
  if (!is_postgresql(location) || at == std::string::npos) return location;
  const auto colon = location.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return location;
  return location.substr(0, colon + 1) + "***" + location.substr(at);
}

std::unique_ptr<database> open_database(const std::string& location) {
  if (is_postgresql(location)) return open_postgresql(location);
  return open_sqlite(location);
}

write_transaction::~write_transaction() {
  if (m_done) return;
  try {
    m_db.rollback();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the error that got us here is the one to tell
  }
}

void write_transaction::commit() {
  m_db.commit();
  m_done = true;
}

}  // namespace gpubench::history

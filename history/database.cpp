#include "history/database.hpp"

#include "history/postgresql_database.hpp"
#include "history/sqlite_database.hpp"

namespace gpubench::history {

bool is_postgresql(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
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

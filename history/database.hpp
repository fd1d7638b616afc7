// One interface over the two databases a store lives in, SQLite (a file) and PostgreSQL (a
// fleet's server): statements with $1, $2, ... parameters, rows of text, and write
// transactions that exclude other writers, so the store's schema and code are written once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpubench::history {

// A parameter or a column: text, or SQL NULL.
using sql_value = std::optional<std::string>;
using sql_row = std::vector<sql_value>;

class database {
 public:
  virtual ~database() = default;
  // Runs one statement; `params` fill $1, $2, ... in order. Returns its rows (none for a
  // statement that returns none). Throws std::runtime_error with the database's message.
  virtual std::vector<sql_row> query(const std::string& sql,
                                     const std::vector<sql_value>& params = {}) = 0;
  // Starts a transaction that no other writer runs beside (SQLite: BEGIN IMMEDIATE behind a
  // busy timeout; PostgreSQL: an advisory lock held to the end of the transaction).
  virtual void begin_write() = 0;
  virtual void commit() = 0;
  virtual void rollback() = 0;
  // "SQLite file results/gpubench.db", "PostgreSQL database gpubench on /tmp/x": for messages.
  virtual std::string describe() const = 0;
};

// `postgresql://...` or `postgres://...` (a libpq connection URI): PostgreSQL; anything else
// is the path of an SQLite file, created (with its folder) when missing. Throws
// core::usage_error when the store cannot be opened, naming it.
std::unique_ptr<database> open_database(const std::string& location);

// Whether `location` names a PostgreSQL server rather than a file.
bool is_postgresql(const std::string& location);

// `location` fit for a message: a password in a URI replaced by ***.
std::string printable_location(const std::string& location);

// A write transaction: committed by commit(), rolled back when left without it (an exception).
class write_transaction {
 public:
  explicit write_transaction(database& db) : m_db(db) { m_db.begin_write(); }
  write_transaction(const write_transaction&) = delete;
  write_transaction& operator=(const write_transaction&) = delete;
  ~write_transaction();
  void commit();

 private:
  database& m_db;
  bool m_done = false;
};

}  // namespace gpubench::history

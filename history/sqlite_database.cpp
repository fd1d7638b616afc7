#include "history/sqlite_database.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace gpubench::history {

namespace {

struct statement_deleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using statement = std::unique_ptr<sqlite3_stmt, statement_deleter>;

class sqlite_database final : public database {
 public:
  explicit sqlite_database(std::string path) : m_path(std::move(path)) {
    const std::filesystem::path p(m_path);
    std::error_code ec;
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
    sqlite3* db = nullptr;
    const int rc =
        sqlite3_open_v2(m_path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    m_db.reset(db);
    if (rc != SQLITE_OK)
      throw core::usage_error(fmt::format("store {}: cannot open: {}", m_path,
                                          db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
    sqlite3_busy_timeout(db, sqlite_busy_timeout_ms);
    try {
      // WAL: readers never wait for a writer, and writers append instead of rewriting. It needs
      // shared memory beside the file, which network and virtual file systems (NFS, 9p) may not
      // give: there the rollback journal, whose locks serialise writers the same way.
      try {
        query("PRAGMA journal_mode=WAL", {});
      } catch (const std::exception&) {
        query("PRAGMA journal_mode=DELETE", {});
      }
      query("PRAGMA foreign_keys=ON", {});
    } catch (const std::exception& e) {
      throw core::usage_error(fmt::format("store {}: {}", m_path, e.what()));
    }
  }

  std::vector<sql_row> query(const std::string& sql,
                             const std::vector<sql_value>& params) override {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(m_db.get(), sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) !=
        SQLITE_OK)
      fail("preparing", sql);
    const statement stmt(raw);
    // $N is a named parameter to SQLite: bound by its name, so the order of first use is free.
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int at = sqlite3_bind_parameter_index(stmt.get(), fmt::format("${}", i + 1).c_str());
      if (at == 0) continue;
      const int rc = params[i]
                         ? sqlite3_bind_text(stmt.get(), at, params[i]->c_str(),
                                             static_cast<int>(params[i]->size()), SQLITE_TRANSIENT)
                         : sqlite3_bind_null(stmt.get(), at);
      if (rc != SQLITE_OK) fail("binding", sql);
    }
    std::vector<sql_row> rows;
    for (;;) {
      const int rc = sqlite3_step(stmt.get());
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) fail("running", sql);
      const int n = sqlite3_column_count(stmt.get());
      sql_row r;
      for (int c = 0; c < n; ++c) {
        const auto* cell = sqlite3_column_text(stmt.get(), c);
        r.push_back(cell ? sql_value(reinterpret_cast<const char*>(cell)) : std::nullopt);
      }
      rows.push_back(std::move(r));
    }
    return rows;
  }

  // IMMEDIATE takes the write lock at once (behind the busy timeout): a transaction that read
  // first and wanted to write later could find another writer in its way with no way to wait.
  void begin_write() override { query("BEGIN IMMEDIATE", {}); }
  void commit() override { query("COMMIT", {}); }
  void rollback() override { query("ROLLBACK", {}); }
  std::string describe() const override { return "SQLite file " + m_path; }

 private:
  [[noreturn]] void fail(const char* what, const std::string& sql) const {
    throw std::runtime_error(
        fmt::format("{} `{}`: {}", what, sql.substr(0, 60), sqlite3_errmsg(m_db.get())));
  }

  struct closer {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
  };
  std::string m_path;
  std::unique_ptr<sqlite3, closer> m_db;
};

}  // namespace

std::unique_ptr<database> open_sqlite(const std::string& path) {
  return std::make_unique<sqlite_database>(path);
}

}  // namespace gpubench::history

#include "history/postgresql_database.hpp"

#include <libpq-fe.h>

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace gpubench::history {

namespace {

// Any key of the advisory lock works as long as every gpubench uses the same: "gpub" in ASCII.
constexpr const char* writer_lock = "SELECT pg_advisory_xact_lock(1735422818)";

struct result_deleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using pg_result = std::unique_ptr<PGresult, result_deleter>;

std::string trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

class postgresql_database final : public database {
 public:
  explicit postgresql_database(const std::string& uri) {
    // Ours first: what the URI says overrides them (libpq reads the arrays in order).
    const std::string timeout = std::to_string(postgresql_connect_timeout_s);
    const std::string options = fmt::format("-c lock_timeout={}s", postgresql_lock_timeout_s);
    const char* keys[] = {"connect_timeout", "options", "application_name", "dbname", nullptr};
    const char* values[] = {timeout.c_str(), options.c_str(), "gpubench", uri.c_str(), nullptr};
    m_conn.reset(PQconnectdbParams(keys, values, 1));
    if (!m_conn) throw core::usage_error(fmt::format("store {}: out of memory", uri));
    m_where = fmt::format("PostgreSQL database {} on {}", PQdb(m_conn.get()),
                          PQhost(m_conn.get()) ? PQhost(m_conn.get()) : "?");
    if (PQstatus(m_conn.get()) != CONNECTION_OK)
      throw core::usage_error(fmt::format("store {}: cannot connect: {}", printable_location(uri),
                                          trimmed(PQerrorMessage(m_conn.get()))));
    // Notices ("relation already exists, skipping") are not for the user.
    PQsetNoticeProcessor(
        m_conn.get(), [](void*, const char*) {}, nullptr);
  }

  std::vector<sql_row> query(const std::string& sql,
                             const std::vector<sql_value>& params) override {
    std::vector<const char*> raw;
    raw.reserve(params.size());
    for (const auto& p : params)
      raw.push_back(p ? p->c_str() : nullptr);
    const pg_result r(PQexecParams(m_conn.get(), sql.c_str(), static_cast<int>(raw.size()), nullptr,
                                   raw.data(), nullptr, nullptr, 0));
    const auto status = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
      throw std::runtime_error(fmt::format("running `{}`: {}", sql.substr(0, 60),
                                           trimmed(PQerrorMessage(m_conn.get()))));
    std::vector<sql_row> rows;
    const int n = PQntuples(r.get()), columns = PQnfields(r.get());
    for (int i = 0; i < n; ++i) {
      sql_row out;
      for (int c = 0; c < columns; ++c)
        out.push_back(PQgetisnull(r.get(), i, c) ? std::nullopt
                                                 : sql_value(PQgetvalue(r.get(), i, c)));
      rows.push_back(std::move(out));
    }
    return rows;
  }

  // One writer at a time, as with SQLite: the schema's first creation and its migrations race
  // otherwise, and a run's sequence number is the largest so far plus one.
  void begin_write() override {
    query("BEGIN", {});
    query(writer_lock, {});
  }
  void commit() override { query("COMMIT", {}); }
  void rollback() override { query("ROLLBACK", {}); }
  std::string describe() const override { return m_where; }

 private:
  struct closer {
    void operator()(PGconn* c) const { PQfinish(c); }
  };
  std::unique_ptr<PGconn, closer> m_conn;
  std::string m_where;
};

}  // namespace

std::unique_ptr<database> open_postgresql(const std::string& uri) {
  return std::make_unique<postgresql_database>(uri);
}

}  // namespace gpubench::history

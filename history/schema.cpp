#include "history/schema.hpp"

#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/version.hpp"

namespace gpubench::history {

namespace {

// migrations[v - 1] brings a store from version v - 1 to v. Types every database reads alike:
// TEXT, BIGINT, DOUBLE PRECISION. Never edit a migration that shipped: add the next one.
const std::array<std::vector<const char*>, schema_version> migrations = {{
    {
        "CREATE TABLE runs ("
        " run_id TEXT PRIMARY KEY,"
        " seq BIGINT NOT NULL,"    // the order runs were added in
        " started TEXT NOT NULL,"  // RFC 3339, UTC: the order runs happened in
        " host TEXT NOT NULL,"
        " suite TEXT NOT NULL,"
        " tool_version TEXT NOT NULL,"
        " source TEXT NOT NULL,"  // the file it was read from, or "run"
        " added TEXT NOT NULL)",
        "CREATE TABLE points ("
        " run_id TEXT NOT NULL REFERENCES runs (run_id),"
        " series TEXT NOT NULL,"
        " benchmark TEXT NOT NULL,"
        " params TEXT NOT NULL,"
        " bytes BIGINT NOT NULL,"
        " host TEXT NOT NULL,"
        " fingerprint TEXT NOT NULL,"
        " metric TEXT NOT NULL,"
        " unit TEXT NOT NULL,"
        " better TEXT NOT NULL,"
        " median DOUBLE PRECISION NOT NULL,"
        " samples BIGINT NOT NULL,"
        " PRIMARY KEY (run_id, series))",
        "CREATE INDEX points_by_series ON points (series)",
    },
    {
        "CREATE TABLE fingerprints ("
        " fingerprint TEXT PRIMARY KEY,"
        " detail TEXT NOT NULL)",
    },
}};

std::string meta(database& db, const char* name) {
  const auto rows = db.query("SELECT value FROM gpubench_store WHERE name = $1", {name});
  return rows.empty() || !rows[0][0] ? std::string() : *rows[0][0];
}

void set_meta(database& db, const char* name, const std::string& to) {
  db.query("DELETE FROM gpubench_store WHERE name = $1", {name});
  db.query("INSERT INTO gpubench_store (name, value) VALUES ($1, $2)", {name, to});
}

int version_of(database& db) {
  const std::string v = meta(db, "schema_version");
  if (v.empty()) return 0;
  try {
    return std::stoi(v);
  } catch (const std::exception&) {
    throw core::input_error(
        fmt::format("store {}: schema version '{}' is not a number", db.describe(), v));
  }
}

void create_meta(database& db) {
  db.query(
      "CREATE TABLE IF NOT EXISTS gpubench_store (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

}  // namespace

int stored_schema_version(database& db) {
  create_meta(db);
  return version_of(db);
}

void prepare_schema(database& db, int target) {
  write_transaction tx(db);
  create_meta(db);
  const int have = version_of(db);
  if (have > target)
    throw core::input_error(fmt::format(
        "store {} has schema version {} (written by gpubench {}); this gpubench {} reads "
        "versions up to {}: use a newer gpubench, or another --store",
        db.describe(), have, meta(db, "written_by"), core::tool_version, target));
  if (have == target) return;  // nothing written: the rollback costs nothing
  try {
    for (int v = have + 1; v <= target; ++v)
      for (const char* sql : migrations.at(static_cast<std::size_t>(v - 1)))
        db.query(sql);
    set_meta(db, "schema_version", std::to_string(target));
    set_meta(db, "written_by", core::tool_version);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("store {}: migrating from schema version {} to {}: {}",
                                         db.describe(), have, target, e.what()));
  }
  tx.commit();
}

}  // namespace gpubench::history

// The results store (docs/history.md): every run's points, by series, in SQLite or PostgreSQL
// behind one interface. Adding a run is one transaction: writers at once lose nothing, and a
// run added twice is kept once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "history/database.hpp"

namespace gpubench::history {

// One run's value in a series.
struct stored_point {
  std::string run_id;
  std::string started;  // RFC 3339
  double value = 0;     // the point's median, in the series' unit
  std::string fingerprint;
};

struct series {
  std::string key;  // series_key()
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t bytes = 0;
  std::string host;
  std::string metric;  // "bandwidth", "latency", ...
  std::string unit;
  std::string better;                // "higher" | "lower"
  std::vector<stored_point> points;  // in the order the runs happened (started, then added)
};

struct series_query {
  std::string filter;  // ECMAScript regular expression searched in the series key; empty: all
  std::string since;   // RFC 3339 (or a prefix: "2026-11-01"); only runs started since
};

struct add_result {
  std::string run_id;
  bool added = false;  // false: the store held this run already
  std::size_t points = 0;
};

class store {
 public:
  // Opens (creates, migrates) the store at `location` (history::open_database). Throws
  // core::usage_error when it cannot be opened, core::input_error when it is from a newer
  // gpubench.
  explicit store(const std::string& location);

  // Adds a run's points: every measured point of every case with status ok (a cluster run's
  // nodes too, each under its own name). `source`: where it came from, for the record.
  add_result add(const core::result_file& file, const std::string& source);

  std::vector<series> load(const series_query& q = {}) const;
  // The detail behind each fingerprint id (fingerprint_detail()).
  std::map<std::string, nlohmann::json> fingerprints() const;
  std::size_t run_count() const;
  std::string describe() const { return m_db->describe(); }

 private:
  // One point to store, pointing into the result file being added.
  struct point_row {
    std::string series;
    const core::case_result* c;
    const core::point_result* p;
    std::string host;
    std::string fingerprint;
  };
  // The measured points of `cases` (status ok, a finite median) and their fingerprints.
  static void collect(const nlohmann::json& system, const std::vector<core::case_result>& cases,
                      const std::string& host, std::vector<point_row>& out,
                      std::map<std::string, nlohmann::json>& details);
  // The transaction of add(): false when the store held the run already.
  bool insert(const core::result_file& file, const std::string& run_id,
              const std::vector<point_row>& rows,
              const std::map<std::string, nlohmann::json>& details, const std::string& source);

  std::unique_ptr<database> m_db;
};

// The key a run is stored under: its id, and for a file read from another tool's output (whose
// id names only the file) a hash of its cases too.
std::string stored_run_id(const core::result_file& file);

}  // namespace gpubench::history

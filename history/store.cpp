#include "history/store.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "core/version.hpp"
#include "history/schema.hpp"
#include "history/series_key.hpp"

namespace gpubench::history {

namespace {

// Shortest text that reads back as the same double.
std::string number(double v) {
  return fmt::format("{}", v);
}

std::string text_of(const sql_value& v) {
  return v ? *v : std::string();
}

}  // namespace

std::string stored_run_id(const core::result_file& file) {
  bool imported = false;
  for (const auto& c : file.results)
    imported = imported || c.imported.has_value();
  if (!imported && !file.run.id.empty()) return file.run.id;
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : file.results)
    cases.push_back(core::case_to_json(c));
  return fmt::format("{}#{}", file.run.id.empty() ? "run" : file.run.id, fingerprint_id(cases));
}

void store::collect(const nlohmann::json& system, const std::vector<core::case_result>& cases,
                    const std::string& host, std::vector<point_row>& out,
                    std::map<std::string, nlohmann::json>& details) {
  for (const auto& c : cases) {
    if (c.status != core::case_status::ok) continue;
    const nlohmann::json detail = fingerprint_detail(system, c.kind);
    const std::string id = fingerprint_id(detail);
    details.emplace(id, detail);
    for (const auto& p : c.points)
      if (std::isfinite(p.stats.median))
        out.push_back({series_key(c.benchmark, c.params, p.bytes, host), &c, &p, host, id});
  }
}

store::store(const std::string& location) : m_db(open_database(location)) {
  prepare_schema(*m_db);
}

add_result store::add(const core::result_file& file, const std::string& source) {
  add_result result;
  result.run_id = stored_run_id(file);
  const std::string host = file.system.is_object() ? file.system.value("host", "") : "";
  std::vector<point_row> rows;
  std::map<std::string, nlohmann::json> details;
  collect(file.system, file.results, host, rows, details);
  if (file.cluster)
    for (const auto& node : file.cluster->nodes)
      collect(node.system, node.results, node.name, rows, details);

  try {
    result.added = insert(file, result.run_id, rows, details, source);
  } catch (const std::runtime_error& e) {
    // The database's own message, with what was being done and where.
    throw std::runtime_error(
        fmt::format("store {}: adding run {}: {}", describe(), result.run_id, e.what()));
  }
  if (result.added) result.points = rows.size();
  return result;
}

bool store::insert(const core::result_file& file, const std::string& run_id,
                   const std::vector<point_row>& rows,
                   const std::map<std::string, nlohmann::json>& details,
                   const std::string& source) {
  write_transaction tx(*m_db);
  if (!m_db->query("SELECT 1 FROM runs WHERE run_id = $1", {run_id}).empty())
    return false;  // already stored: the rollback leaves the store as it was
  const std::string host = file.system.is_object() ? file.system.value("host", "") : "";
  const std::string started = file.run.started.empty() ? core::rfc3339_now() : file.run.started;
  m_db->query(
      "INSERT INTO runs (run_id, seq, started, host, suite, tool_version, source, added) "
      "VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM runs), $2, $3, $4, $5, $6, $7)",
      {run_id, started, host, file.run.suite, file.tool.version, source, core::rfc3339_now()});
  for (const auto& [id, detail] : details)
    m_db->query(
        "INSERT INTO fingerprints (fingerprint, detail) VALUES ($1, $2) "
        "ON CONFLICT (fingerprint) DO NOTHING",
        {id, detail.dump()});
  for (const auto& r : rows) {
    m_db->query(
        "INSERT INTO points (run_id, series, benchmark, params, bytes, host, fingerprint, "
        "metric, unit, better, median, samples) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
        "$10, $11, $12) ON CONFLICT (run_id, series) DO NOTHING",
        {run_id, r.series, r.c->benchmark, r.c->params.dump(), std::to_string(r.p->bytes), r.host,
         r.fingerprint, r.c->metric, r.c->unit, r.c->better, number(r.p->stats.median),
         std::to_string(std::max<std::size_t>(1, r.p->samples.size()))});
  }
  tx.commit();
  return true;
}

std::vector<series> store::load(const series_query& q) const {
  std::optional<std::regex> filter;
  if (!q.filter.empty()) try {
      filter.emplace(q.filter, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw core::usage_error(fmt::format("--filter '{}': {}", q.filter, e.what()));
    }
  const auto rows = m_db->query(
      "SELECT p.series, p.benchmark, p.params, p.bytes, p.host, p.metric, p.unit, p.better, "
      "r.run_id, r.started, p.median, p.fingerprint FROM points p JOIN runs r ON r.run_id = "
      "p.run_id WHERE r.started >= $1 ORDER BY p.series, r.started, r.seq",
      {q.since});
  std::vector<series> out;
  for (const auto& r : rows) {
    const std::string key = text_of(r[0]);
    if (filter && !std::regex_search(key, *filter)) continue;
    if (out.empty() || out.back().key != key) {
      series s;
      s.key = key;
      s.benchmark = text_of(r[1]);
      s.params = nlohmann::json::parse(text_of(r[2]), nullptr, false);
      s.bytes = std::stoull(text_of(r[3]));
      s.host = text_of(r[4]);
      s.metric = text_of(r[5]);
      s.unit = text_of(r[6]);
      s.better = text_of(r[7]);
      out.push_back(std::move(s));
    }
    out.back().points.push_back(
        {text_of(r[8]), text_of(r[9]), std::stod(text_of(r[10])), text_of(r[11])});
  }
  // The databases sort text by their own collations: one order for both.
  std::sort(out.begin(), out.end(), [](const series& a, const series& b) { return a.key < b.key; });
  return out;
}

std::map<std::string, nlohmann::json> store::fingerprints() const {
  std::map<std::string, nlohmann::json> out;
  for (const auto& r : m_db->query("SELECT fingerprint, detail FROM fingerprints"))
    out[text_of(r[0])] = nlohmann::json::parse(text_of(r[1]), nullptr, false);
  return out;
}

std::size_t store::run_count() const {
  const auto rows = m_db->query("SELECT COUNT(*) FROM runs");
  return rows.empty() ? 0 : std::stoull(text_of(rows[0][0]));
}

}  // namespace gpubench::history

#include "reports/compare/references.hpp"

#include <fnmatch.h>

#include <fmt/format.h>
#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "core/strict_json.hpp"
#include "core/units.hpp"

namespace gpubench::reports::compare {

using nlohmann::json;

namespace {

// Each object's allowed keys, so a typo ("lowr") is an error rather than a silent no-op.
void only_keys(const json& j, const std::set<std::string>& allowed, const std::string& where) {
  for (const auto& [key, value] : j.items())
    if (!allowed.contains(key)) {
      std::string list;
      for (const auto& a : allowed)
        list += (list.empty() ? "" : ", ") + a;
      throw core::input_error(fmt::format("{}: unknown key '{}' (allowed: {})", where, key, list));
    }
}

const json& require(const json& j, const std::string& key, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end()) throw core::input_error(fmt::format("{}.{}: missing", where, key));
  return *it;
}

std::string string_field(const json& j, const std::string& key, const std::string& where) {
  const json& v = require(j, key, where);
  if (!v.is_string() || v.get<std::string>().empty())
    throw core::input_error(fmt::format("{}.{}: expected a non-empty string", where, key));
  return v.get<std::string>();
}

std::optional<double> number_field(const json& j, const std::string& key,
                                   const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    throw core::input_error(fmt::format("{}.{}: expected a number", where, key));
  return it->get<double>();
}

std::uint64_t bytes_field(const json& v, const std::string& where) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > 0) return v.get<std::uint64_t>();
  if (v.is_string()) {
    try {
      return core::parse_bytes(v.get<std::string>());
    } catch (const std::exception& e) {
      throw core::input_error(fmt::format("{}.bytes: {}", where, e.what()));
    }
  }
  throw core::input_error(fmt::format(
      "{}.bytes: expected a positive whole number of bytes or a size such as \"64MiB\"", where));
}

reference_entry entry_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) throw core::input_error(where + ": expected an object");
  only_keys(j, {"benchmark", "params", "bytes", "unit", "expected", "lower", "upper"}, where);
  reference_entry e;
  e.where = where;
  e.benchmark = string_field(j, "benchmark", where);
  if (auto it = j.find("params"); it != j.end()) {
    if (!it->is_object()) throw core::input_error(where + ".params: expected an object");
    e.params = *it;
  }
  if (auto it = j.find("bytes"); it != j.end()) e.bytes = bytes_field(*it, where);
  e.unit = string_field(j, "unit", where);
  const auto expected = number_field(j, "expected", where);
  if (!expected) throw core::input_error(where + ".expected: missing (a number is needed)");
  e.expected = *expected;
  e.lower = number_field(j, "lower", where);
  e.upper = number_field(j, "upper", where);
  if (!e.lower && !e.upper)
    throw core::input_error(where + ": needs a lower or an upper bound (or both)");
  if (e.lower && *e.lower > e.expected)
    throw core::input_error(
        fmt::format("{}.lower: {} is above expected {}", where, *e.lower, e.expected));
  if (e.upper && *e.upper < e.expected)
    throw core::input_error(
        fmt::format("{}.upper: {} is below expected {}", where, *e.upper, e.expected));
  return e;
}

reference_system system_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) throw core::input_error(where + ": expected an object");
  only_keys(j, {"label", "hosts", "references"}, where);
  reference_system s;
  if (j.contains("label")) s.label = string_field(j, "label", where);
  if (auto it = j.find("hosts"); it != j.end()) {
    if (!it->is_array()) throw core::input_error(where + ".hosts: expected an array of patterns");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& h = (*it)[i];
      if (!h.is_string() || h.get<std::string>().empty())
        throw core::input_error(
            fmt::format("{}.hosts[{}]: expected a host name or pattern", where, i));
      s.hosts.push_back(h.get<std::string>());
    }
  }
  if (s.label.empty() && s.hosts.empty())
    throw core::input_error(where + ": needs a label or hosts to be matched by");
  const json& refs = require(j, "references", where);
  if (!refs.is_array() || refs.empty())
    throw core::input_error(where + ".references: expected a non-empty array");
  for (std::size_t i = 0; i < refs.size(); ++i)
    s.references.push_back(entry_from_json(refs[i], fmt::format("{}.references[{}]", where, i)));
  return s;
}

bool params_match(const json& wanted, const json& have) {
  for (const auto& [key, value] : wanted.items()) {
    auto it = have.find(key);
    if (it == have.end() || *it != value) return false;
  }
  return true;
}

std::string system_name(const reference_system& s) {
  if (!s.label.empty()) return s.label;
  std::string hosts;
  for (const auto& h : s.hosts)
    hosts += (hosts.empty() ? "" : ",") + h;
  return hosts;
}

comparison_row reference_row(const reference_system& system, const reference_entry& e,
                             const core::case_result& c) {
  comparison_row row;
  row.basis = row_basis::reference;
  row.benchmark = c.benchmark;
  row.params = c.params;
  row.metric = c.metric;
  row.unit = c.unit;
  row.better = c.better;
  row.base_value = e.expected;
  row.reference = reference_bounds{system_name(system), e.expected, e.lower, e.upper};
  return row;
}

void judge(comparison_row& row, const reference_entry& e, double value) {
  row.new_value = value;
  const double sign = row.better == "lower" ? -1.0 : 1.0;
  if (e.expected != 0) {
    row.ratio = value / e.expected;
    row.change = sign * (value - e.expected) / e.expected;
  }
  const bool below = !std::isfinite(value) || (e.lower && value < *e.lower);
  const bool above = e.upper && value > *e.upper;
  if (!below && !above) {
    row.result = verdict::same;
    return;
  }
  row.regression = true;
  const bool worse = below ? sign > 0 : sign < 0;
  row.result = worse ? verdict::slower : verdict::faster;
  if (below)
    row.note = fmt::format("{:.4g} {} is below the lower bound {:.4g}", value, row.unit,
                           e.lower.value_or(0));
  else
    row.note = fmt::format("{:.4g} {} is above the upper bound {:.4g}", value, row.unit, *e.upper);
  if (!worse) row.note += ": better than expected, check the measurement or the reference";
}

}  // namespace

reference_file references_from_json(const json& j, const std::string& origin) {
  if (!j.is_object()) throw core::input_error(origin + ": expected a JSON object");
  only_keys(j, {"schema", "systems"}, origin);
  const json& schema = require(j, "schema", origin);
  if (!schema.is_string() || schema.get<std::string>() != references_schema_id)
    throw core::input_error(fmt::format("{}.schema: expected \"{}\", found {}", origin,
                                        references_schema_id, schema.dump()));
  const json& systems = require(j, "systems", origin);
  if (!systems.is_array() || systems.empty())
    throw core::input_error(origin + ".systems: expected a non-empty array");
  reference_file out;
  for (std::size_t i = 0; i < systems.size(); ++i)
    out.systems.push_back(system_from_json(systems[i], fmt::format("{}: systems[{}]", origin, i)));
  return out;
}

reference_file read_reference_file(const std::filesystem::path& path) {
  // The result files' strict reader: a key given twice is refused, not "last one wins".
  return references_from_json(core::read_json_file_strict(path), path.string());
}

const reference_system& select_system(const reference_file& refs, const std::string& host,
                                      const std::optional<std::string>& label,
                                      const std::string& origin) {
  std::string available;
  for (const auto& s : refs.systems) {
    if (label ? s.label == *label : false) return s;
    if (!label)
      for (const auto& pattern : s.hosts)
        if (fnmatch(pattern.c_str(), host.c_str(), 0) == 0) return s;
    available += (available.empty() ? "" : "; ") + system_name(s);
  }
  if (label)
    throw core::input_error(
        fmt::format("{}: no system labelled '{}' (systems: {})", origin, *label, available));
  throw core::input_error(
      fmt::format("{}: no system matches host '{}' (systems: {}); choose one with --system LABEL",
                  origin, host, available));
}

std::vector<comparison_row> check_references(const reference_system& system,
                                             const core::result_file& fresh,
                                             const compare_options& options) {
  std::vector<comparison_row> rows;
  for (const auto& e : system.references) {
    bool matched = false;
    for (const auto& c : fresh.results) {
      if (c.benchmark != e.benchmark || !params_match(e.params, c.params)) continue;
      if (c.status != core::case_status::ok) {
        matched = true;
        comparison_row row = reference_row(system, e, c);
        row.bytes = e.bytes;
        row.result = verdict::lost;
        row.regression = true;
        row.note = fmt::format("NEW {}: {}", core::to_string(c.status), c.reason);
        rows.push_back(std::move(row));
        continue;
      }
      if (c.unit != e.unit)
        throw core::input_error(fmt::format("{}.unit: '{}' but {} is measured in '{}'", e.where,
                                            e.unit, c.benchmark, c.unit));
      for (const auto& p : c.points) {
        if (e.bytes && p.bytes != *e.bytes) continue;
        matched = true;
        comparison_row row = reference_row(system, e, c);
        row.bytes = p.bytes;
        judge(row, e, p.stats.median);
        rows.push_back(std::move(row));
      }
    }
    if (!matched) {
      comparison_row row;
      row.basis = row_basis::reference;
      row.benchmark = e.benchmark;
      row.params = e.params;
      row.bytes = e.bytes;
      row.unit = e.unit;
      row.base_value = e.expected;
      row.reference = reference_bounds{system_name(system), e.expected, e.lower, e.upper};
      row.result = verdict::removed;
      row.regression = options.fail_on_removed;
      row.note = fmt::format("no result in NEW matches {}", e.where);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace gpubench::reports::compare

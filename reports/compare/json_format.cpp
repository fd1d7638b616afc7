#include <cmath>

#include "reports/compare/formats.hpp"

namespace gpubench::reports::compare {

using nlohmann::json;

namespace {

// JSON has no NaN or infinity: absent and non-finite values are null.
json number(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

json row_json(const comparison_row& r) {
  json j = {{"basis", to_string(r.basis)}, {"benchmark", r.benchmark},
            {"params", r.params},          {"bytes", r.bytes ? json(*r.bytes) : json(nullptr)},
            {"metric", r.metric},          {"unit", r.unit},
            {"better", r.better},          {"base", number(r.base_value)},
            {"new", number(r.new_value)},  {"ratio", number(r.ratio)},
            {"change", number(r.change)},  {"verdict", to_string(r.result)},
            {"regression", r.regression},  {"note", r.note}};
  if (r.basis == row_basis::baseline) j["threshold"] = r.threshold;
  if (r.test)
    j["test"] = {{"name", "mann-whitney-u"},
                 {"method", to_string(r.test->method)},
                 {"n_base", r.test->n_base},
                 {"n_new", r.test->n_new},
                 {"u_base", r.test->u_base},
                 {"u_new", r.test->u_new},
                 {"p", r.test->p},
                 {"min_p", r.test->min_p},
                 {"too_few_samples", r.test->too_few_samples},
                 {"significant", r.test->significant}};
  if (r.one_value) {
    j["one_value"] = true;
    if (r.sign_p) j["sign_test_p"] = *r.sign_p;
    if (!r.decided_by.empty()) j["decided_by"] = r.decided_by;
  }
  if (r.reference)
    j["reference"] = {{"system", r.reference->system},
                      {"expected", r.reference->expected},
                      {"lower", number(r.reference->lower)},
                      {"upper", number(r.reference->upper)}};
  return j;
}

// Everything but the rows, which are left an empty array.
json envelope(const comparison& c) {
  json per_benchmark = json::object();
  for (const auto& [id, t] : c.options.threshold.per_benchmark)
    per_benchmark[id] = t;
  json counts = json::object();
  for (verdict v : {verdict::faster, verdict::slower, verdict::same, verdict::noisy, verdict::added,
                    verdict::removed, verdict::lost, verdict::unmeasured})
    counts[to_string(v)] = c.count(v);
  return {{"schema", comparison_schema_id},
          {"base", c.base_name},
          {"new", c.new_name},
          {"options",
           {{"threshold", c.options.threshold.global},
            {"threshold_per_benchmark", per_benchmark},
            {"alpha", c.options.alpha},
            {"fail_on_removed", c.options.fail_on_removed}}},
          {"regressed", c.regressed()},
          {"regressions", c.regressions()},
          {"counts", counts},
          {"warnings", c.warnings},
          {"rows", json::array()}};
}

}  // namespace

json to_json(const comparison& c) {
  json j = envelope(c);
  for (const auto& r : c.rows)
    j["rows"].push_back(row_json(r));
  return j;
}

// As to_json(c).dump(2), but one row is a JSON value at a time: a comparison of large files
// would otherwise hold every row twice over (as JSON values, then as text).
std::string format_json(const comparison& c) {
  std::string text = envelope(c).dump(2) + "\n";
  if (c.rows.empty()) return text;
  // Keys are sorted, so "rows" sits at the top level once; a quote inside a string value is
  // escaped, so no string value can contain this text.
  const std::string marker = "\n  \"rows\": []";
  const std::size_t at = text.find(marker);
  std::string out = text.substr(0, at) + "\n  \"rows\": [";
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    std::string row = row_json(c.rows[i]).dump(2);
    out += i ? ",\n    " : "\n    ";
    for (char ch : row) {
      out += ch;
      if (ch == '\n') out += "    ";
    }
  }
  out += "\n  ]";
  out.append(text, at + marker.size(), std::string::npos);
  return out;
}

}  // namespace gpubench::reports::compare

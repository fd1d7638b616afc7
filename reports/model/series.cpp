#include "reports/model/series.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "reports/model/text_format.hpp"

namespace gpubench::reports::model {

namespace {

std::vector<std::string> split_id(const std::string& id) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot = id.find('.'); dot != std::string::npos; dot = id.find('.', start)) {
    parts.push_back(id.substr(start, dot - start));
    start = dot + 1;
  }
  parts.push_back(id.substr(start));
  return parts;
}

// The components of a benchmark id that are not shared by all ids of the view.
std::string distinct_id_part(const std::string& id, const std::vector<std::string>& all) {
  const auto mine = split_id(id);
  std::string out;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const bool shared = std::all_of(all.begin(), all.end(), [&](const std::string& other) {
      const auto theirs = split_id(other);
      return i < theirs.size() && theirs[i] == mine[i];
    });
    if (!shared) out += (out.empty() ? "" : ".") + mine[i];
  }
  return out;
}

}  // namespace

parameter_split split_parameters(const std::vector<case_ref>& cases,
                                 const std::vector<std::string>& ignore) {
  std::set<std::string> keys;
  for (const auto& c : cases)
    for (const auto& [key, value] : c.result->params.items())
      keys.insert(key);
  parameter_split out;
  for (const auto& key : keys) {
    if (std::find(ignore.begin(), ignore.end(), key) != ignore.end()) continue;
    std::set<std::string> values;
    std::set<std::string> ids_with, ids_without;
    for (const auto& c : cases) {
      if (c.result->params.contains(key)) {
        values.insert(param_text(c.result->params.at(key)));
        ids_with.insert(c.result->benchmark);
      } else {
        ids_without.insert(c.result->benchmark);
      }
    }
    const bool partial = std::any_of(ids_with.begin(), ids_with.end(), [&](const std::string& id) {
      return ids_without.contains(id);
    });
    if (values.size() > 1 || partial)
      out.varying.push_back(key);
    else if (!values.empty())
      out.shared += (out.shared.empty() ? "" : ", ") + key + "=" + *values.begin();
  }
  return out;
}

std::string with_shared(const std::string& caption, const std::vector<case_ref>& cases,
                        const std::vector<std::string>& ignore) {
  const auto split = split_parameters(cases, ignore);
  return split.shared.empty() ? caption : caption + "; every row: " + split.shared;
}

void label_cases(std::vector<case_ref>& cases, const std::vector<std::string>& ignore) {
  std::set<const run_input*> runs;
  std::set<std::string> ids;
  for (const auto& c : cases) {
    runs.insert(c.run);
    ids.insert(c.result->benchmark);
  }
  const auto varying = split_parameters(cases, ignore).varying;
  const std::vector<std::string> all_ids(ids.begin(), ids.end());
  for (auto& c : cases) {
    std::string label;
    auto add = [&label](const std::string& part) {
      if (!part.empty()) label += (label.empty() ? "" : ", ") + part;
    };
    if (runs.size() > 1) add(c.run->label);
    if (ids.size() > 1) add(distinct_id_part(c.result->benchmark, all_ids));
    for (const auto& key : varying)
      if (c.result->params.contains(key)) add(key + "=" + param_text(c.result->params.at(key)));
    c.label = label.empty() ? c.result->benchmark : label;
  }
}

std::vector<case_ref> measured(const std::vector<case_ref>& cases) {
  std::vector<case_ref> out;
  for (const auto& c : cases)
    if (c.result->status == core::case_status::ok && !c.result->points.empty()) out.push_back(c);
  return out;
}

const core::point_result* largest_point(const core::case_result& c) {
  const auto it = std::max_element(c.points.begin(), c.points.end(),
                                   [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
  return it == c.points.end() ? nullptr : &*it;
}

const core::point_result* smallest_point(const core::case_result& c) {
  const auto it = std::min_element(c.points.begin(), c.points.end(),
                                   [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
  return it == c.points.end() ? nullptr : &*it;
}

double extra_value(const core::point_result& p, const std::string& key) {
  const auto it = p.extra.find(key);
  return it != p.extra.end() && it->is_number() ? it->get<double>() : std::nan("");
}

}  // namespace gpubench::reports::model

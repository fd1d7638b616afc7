#include "reports/views/summary_section.hpp"

#include <algorithm>

#include "reports/model/text_format.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

// What a device is, without what tells identical devices apart (index, UUID, PCI address),
// so eight identical GPUs read as one line.
std::string device_text(const nlohmann::json& item) {
  if (!item.is_object()) return param_text(item);
  static const std::vector<std::string> identity = {"index", "uuid",   "serial", "pci_bus_id",
                                                    "pci",   "bus_id", "mac",    "address"};
  std::string name, rest;
  for (const char* key : {"name", "model", "device", "interface", "ifname"})
    if (name.empty() && item.contains(key)) name = param_text(item.at(key));
  for (const auto& [key, value] : item.items()) {
    if (param_text(value) == name || value.is_object() || value.is_array()) continue;
    if (std::find(identity.begin(), identity.end(), key) != identity.end()) continue;
    rest += (rest.empty() ? "" : ", ") + key + "=" + param_text(value);
  }
  if (name.empty()) return rest;
  return rest.empty() ? name : name + " (" + rest + ")";
}

std::string count_text(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

std::string system_value_text(const nlohmann::json& value) {
  if (value.is_array()) {
    if (value.empty()) return "none";
    std::vector<std::pair<std::string, std::size_t>> kinds;  // in order of first appearance
    for (const auto& item : value) {
      const std::string text = device_text(item);
      auto it =
          std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == text; });
      if (it == kinds.end())
        kinds.emplace_back(text, 1);
      else
        ++it->second;
    }
    std::string out;
    for (const auto& [text, n] : kinds)
      out += (out.empty() ? "" : "; ") + (n > 1 ? std::to_string(n) + " x " : "") + text;
    return out;
  }
  if (value.is_object()) {
    if (value.empty()) return "-";
    std::string out;
    for (const auto& [key, v] : value.items())
      out += (out.empty() ? "" : "; ") + key + ": " +
             (v.is_object() || v.is_array() ? v.dump() : param_text(v));
    return out;
  }
  return param_text(value);
}

section summary_section(const std::vector<run_input>& runs) {
  section s{"Summary", 1, {}};
  std::size_t ok = 0, skipped = 0, failed = 0;
  for (const auto& r : runs)
    for (const auto& c : r.file.results)
      (c.status == core::case_status::ok        ? ok
       : c.status == core::case_status::skipped ? skipped
                                                : failed)++;
  s.blocks.emplace_back(paragraph{
      count_text(runs.size(), "result file") + ": " + count_text(ok, "case") + " measured, " +
      std::to_string(skipped) + " skipped, " + std::to_string(failed) +
      " failed. Every value is read from the result files as gpubench run wrote them; ratios "
      "and % of line rate are computed for presentation only."});

  table sys;
  sys.caption = "Systems";
  sys.header = {""};
  for (const auto& r : runs)
    sys.header.push_back(r.label);
  sys.numeric.assign(sys.header.size(), false);
  auto add_row = [&](const std::string& name, auto&& value_of) {
    std::vector<std::string> row = {name};
    for (const auto& r : runs)
      row.push_back(value_of(r));
    sys.rows.push_back(std::move(row));
  };
  add_row("file", [](const run_input& r) { return r.path.filename().string(); });
  add_row("run", [](const run_input& r) {
    if (const auto tools = imported_from(r.file); !tools.empty())
      return r.file.run.id + " (imported from " + tools + ")";
    return r.file.run.id + " (suite " + r.file.run.suite + ", " +
           core::to_string(r.file.run.status) + ")";
  });
  add_row("time", [](const run_input& r) {
    // An import's own time is when it was read, not when the tool ran.
    if (!imported_from(r.file).empty()) return "imported " + r.file.run.started;
    return r.file.run.started + " to " + (r.file.run.finished.empty() ? "?" : r.file.run.finished);
  });
  add_row("gpubench", [](const run_input& r) {
    return r.file.tool.version + (r.file.tool.git.empty() ? "" : " (" + r.file.tool.git + ")");
  });
  std::vector<std::string> keys;
  for (const auto& r : runs)
    for (const auto& [key, value] : r.file.system.items())
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  for (const auto& key : keys)
    add_row(key, [&key](const run_input& r) {
      return r.file.system.contains(key) ? system_value_text(r.file.system.at(key)) : "-";
    });
  s.blocks.emplace_back(std::move(sys));

  table ran;
  ran.caption = "What ran";
  ran.header = {"run", "benchmark", "cases", "measured", "skipped", "failed", "points"};
  ran.numeric = {false, false, true, true, true, true, true};
  table missing;
  missing.caption = "Skipped and failed, with the reason";
  missing.header = {"run", "benchmark", "parameters", "status", "reason"};
  missing.numeric = {false, false, false, false, false};
  for (const auto& r : runs) {
    std::vector<std::string> order;
    for (const auto& c : r.file.results)
      if (std::find(order.begin(), order.end(), c.benchmark) == order.end())
        order.push_back(c.benchmark);
    for (const auto& id : order) {
      std::size_t n = 0, n_ok = 0, n_skip = 0, n_fail = 0, points = 0;
      for (const auto& c : r.file.results) {
        if (c.benchmark != id) continue;
        ++n;
        points += c.points.size();
        if (c.status == core::case_status::ok) ++n_ok;
        if (c.status == core::case_status::skipped) ++n_skip;
        if (c.status == core::case_status::failed) ++n_fail;
        if (c.status != core::case_status::ok)
          missing.rows.push_back(
              {r.label, id, params_text(c.params), core::to_string(c.status), c.reason});
      }
      ran.rows.push_back({r.label, id, std::to_string(n), std::to_string(n_ok),
                          std::to_string(n_skip), std::to_string(n_fail), std::to_string(points)});
    }
  }
  s.blocks.emplace_back(std::move(ran));
  if (!missing.rows.empty()) s.blocks.emplace_back(std::move(missing));
  return s;
}

}  // namespace gpubench::reports::views

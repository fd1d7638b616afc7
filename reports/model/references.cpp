#include "reports/model/references.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/errors.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::model {

// Generated at build time from references.json (references_data.cpp.in).
const char* builtin_references_json();

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains_text(const nlohmann::json& value, const std::string& needle) {
  return value.is_string() &&
         lower(value.get<std::string>()).find(lower(needle)) != std::string::npos;
}

// Link speed of a NIC or RDMA port in Gb/s, from the field names the system probes use.
double speed_gbps(const nlohmann::json& dev) {
  for (const char* key : {"speed_gbps", "rate_gbps", "active_speed_gbps"})
    if (dev.contains(key) && dev.at(key).is_number()) return dev.at(key).get<double>();
  if (dev.contains("speed_mbps") && dev.at("speed_mbps").is_number())
    return dev.at("speed_mbps").get<double>() / 1000.0;
  return std::nan("");
}

const nlohmann::json& list_of(const nlohmann::json& system, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  return system.contains(key) && system.at(key).is_array() ? system.at(key) : empty;
}

bool any_device(const nlohmann::json& list, const auto& predicate) {
  return std::any_of(list.begin(), list.end(), predicate);
}

// A figure names the path and the qualifiers it was measured on; what it leaves out matches any.
core::kind_query query_of(const reference_figure& f) {
  return {f.kind.path, f.kind.direction, f.kind.transport, f.kind.operation, f.metric};
}

bool params_subset(const nlohmann::json& wanted, const nlohmann::json& params) {
  for (const auto& [key, value] : wanted.items())
    if (!params.contains(key) || params.at(key) != value) return false;
  return true;
}

}  // namespace

bool hardware_matches(const nlohmann::json& hardware, const nlohmann::json& system) {
  const auto& gpus = list_of(system, "gpus");
  const auto& nics = list_of(system, "nics");
  const auto& rdma = list_of(system, "rdma_devices");
  for (const auto& [key, want] : hardware.items()) {
    bool ok = false;
    if (key == "gpu") {
      ok = any_device(gpus, [&](const auto& g) {
        return g.contains("name") && contains_text(g.at("name"), want.get<std::string>());
      });
    } else if (key == "gpu_count") {
      ok = gpus.size() >= want.get<std::size_t>();
    } else if (key == "nic_speed_gbps") {
      ok = any_device(nics, [&](const auto& n) { return speed_gbps(n) == want.get<double>(); });
    } else if (key == "rdma_link_layer") {
      ok = any_device(rdma, [&](const auto& d) {
        return d.contains("link_layer") &&
               contains_text(d.at("link_layer"), want.get<std::string>());
      });
    } else if (key == "rdma_speed_gbps") {
      ok = any_device(rdma, [&](const auto& d) { return speed_gbps(d) == want.get<double>(); });
    }
    if (!ok) return false;
  }
  return true;
}

reference_set::reference_set(const nlohmann::json& doc, const std::string& origin) {
  const auto fail = [&](const std::string& what) { throw core::input_error(origin + ": " + what); };
  if (!doc.is_object() || doc.value("schema", "") != "gpubench.references/1")
    fail("not a gpubench.references/1 document");
  if (!doc.contains("figures") || !doc.at("figures").is_array()) fail("no \"figures\" array");
  static const std::vector<std::string> known = {"gpu", "gpu_count", "nic_speed_gbps",
                                                 "rdma_link_layer", "rdma_speed_gbps"};
  std::size_t i = 0;
  for (const auto& f : doc.at("figures")) {
    const std::string where = "figures[" + std::to_string(i++) + "]";
    try {
      reference_figure r;
      try {
        r.kind = core::kind_from_json(f.at("kind"));
      } catch (const std::invalid_argument& e) {
        fail(where + ".kind: " + e.what());
      }
      r.metric = f.value("metric", std::string());
      r.params = f.value("params", nlohmann::json::object());
      r.hardware = f.at("hardware");
      for (const auto& [key, value] : r.hardware.items())
        if (std::find(known.begin(), known.end(), key) == known.end())
          fail(where + ".hardware: unknown key '" + key + "'");
      r.what = f.at("what").get<std::string>();
      r.low = f.at("low").get<double>();
      r.high = f.at("high").get<double>();
      r.unit = f.at("unit").get<std::string>();
      r.source = f.at("source").get<std::string>();
      if (r.source.empty()) fail(where + ": every figure needs a source");
      if (r.low > r.high) fail(where + ": low is above high");
      m_figures.push_back(std::move(r));
    } catch (const nlohmann::json::exception& e) {
      fail(where + ": " + e.what());
    }
  }
}

reference_set reference_set::builtin() {
  return reference_set(nlohmann::json::parse(builtin_references_json()),
                       "built-in reference figures");
}

std::vector<const reference_figure*> reference_set::matching(const core::case_result& c,
                                                             const nlohmann::json& system) const {
  std::vector<const reference_figure*> out;
  for (const auto& f : m_figures)
    if (query_of(f).matches(c.kind, c.metric) && params_subset(f.params, c.params) &&
        hardware_matches(f.hardware, system))
      out.push_back(&f);
  return out;
}

std::string figure_text(const reference_figure& f) {
  if (f.low == f.high) return format_value(f.low) + " " + f.unit;
  return format_value(f.low) + "-" + format_value(f.high) + " " + f.unit;
}

}  // namespace gpubench::reports::model

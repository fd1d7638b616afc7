#include "reports/model/bands.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace gpubench::reports::model {

// Generated at build time from bands.json (bands_data.cpp.in).
const char* builtin_bands_json();

const std::vector<std::string>& band_metrics() {
  static const std::vector<std::string> metrics = {"h2d",
                                                   "d2h",
                                                   "gpu_pair_uni",
                                                   "gpu_pair_bidir",
                                                   "allreduce_8gpu_nvls",
                                                   "allreduce_8gpu_ring",
                                                   "nic_busbw",
                                                   "ib_write_bw",
                                                   "rc_latency"};
  return metrics;
}

namespace {

std::string lowercase_of(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "NVIDIA H100 80GB HBM3" -> nvidia, h100, 80gb, hbm3; "A100-SXM4-40GB" -> a100, sxm4, 40gb.
std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> out;
  std::string w;
  for (char c : name + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  return out;
}

bool has_name_word(const std::vector<std::string>& ws, const std::string& word) {
  return std::find(ws.begin(), ws.end(), lowercase_of(word)) != ws.end();
}

const nlohmann::json& system_list(const nlohmann::json* system, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  if (!system || !system->is_object()) return empty;
  const auto it = system->find(key);
  return it != system->end() && it->is_array() ? *it : empty;
}

double device_speed_gbps(const nlohmann::json& dev) {
  for (const char* key : {"speed_gbps", "rate_gbps", "active_speed_gbps"})
    if (dev.contains(key) && dev.at(key).is_number()) return dev.at(key).get<double>();
  if (dev.contains("speed_mbps") && dev.at("speed_mbps").is_number())
    return dev.at("speed_mbps").get<double>() / 1000.0;
  return std::nan("");
}

// The PCIe generation a GPU's link is capable of (else runs at), from {"generation": 5} or
// "gen5 x16" as the system probes write it.
std::optional<int> generation_of(const nlohmann::json& link) {
  if (link.is_object() && link.contains("generation") && link.at("generation").is_number())
    return link.at("generation").get<int>();
  if (link.is_string()) {
    const std::string s = lowercase_of(link.get<std::string>());
    if (const auto at = s.find("gen"); at != std::string::npos && at + 3 < s.size() &&
                                       std::isdigit(static_cast<unsigned char>(s[at + 3])))
      return s[at + 3] - '0';
  }
  return std::nullopt;
}

bool gpu_matches(const band_system& s, const nlohmann::json& gpus) {
  return std::any_of(gpus.begin(), gpus.end(), [&](const nlohmann::json& g) {
    if (!g.is_object() || !g.contains("name") || !g.at("name").is_string()) return false;
    const auto ws = name_words(g.at("name").get<std::string>());
    return std::any_of(s.gpu.begin(), s.gpu.end(),
                       [&](const auto& w) { return has_name_word(ws, w); }) &&
           std::none_of(s.not_gpu.begin(), s.not_gpu.end(),
                        [&](const auto& w) { return has_name_word(ws, w); });
  });
}

bool pcie_matches(int gen, const nlohmann::json& gpus) {
  return std::any_of(gpus.begin(), gpus.end(), [&](const nlohmann::json& g) {
    if (!g.is_object() || !g.contains("pcie")) return false;
    const auto& p = g.at("pcie");
    for (const char* key : {"max", "current"})
      if (p.is_object() && p.contains(key))
        if (const auto found = generation_of(p.at(key))) return *found == gen;
    return generation_of(p) == gen;
  });
}

bool nic_matches(double gbps, const band_context& c) {
  if (c.port_gbps) return std::fabs(*c.port_gbps - gbps) <= 0.05 * gbps;
  for (const char* key : {"nics", "rdma_devices"}) {
    const auto& list = system_list(c.system, key);
    if (std::any_of(list.begin(), list.end(),
                    [&](const nlohmann::json& d) { return device_speed_gbps(d) == gbps; }))
      return true;
  }
  return false;
}

bool link_layer_matches(const std::string& want, const band_context& c) {
  if (!c.link_layer.empty())
    return lowercase_of(c.link_layer).find(lowercase_of(want)) != std::string::npos;
  const auto& rdma = system_list(c.system, "rdma_devices");
  return std::any_of(rdma.begin(), rdma.end(), [&](const nlohmann::json& d) {
    return d.is_object() && d.contains("link_layer") && d.at("link_layer").is_string() &&
           lowercase_of(d.at("link_layer").get<std::string>()).find(lowercase_of(want)) !=
               std::string::npos;
  });
}

std::string band_text_field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j.at(key).is_string() || j.at(key).get<std::string>().empty())
    throw core::input_error(fmt::format("{}.{}: expected a non-empty string", where, key));
  return j.at(key).get<std::string>();
}

double band_number(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j.at(key).is_number() || !std::isfinite(j.at(key).get<double>()))
    throw core::input_error(fmt::format("{}.{}: expected a number", where, key));
  return j.at(key).get<double>();
}

std::vector<std::string> band_words(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  if (j.contains(key) && j.at(key).is_array())
    for (const auto& w : j.at(key))
      if (w.is_string()) out.push_back(w.get<std::string>());
  return out;
}

}  // namespace

band_table::band_table(const nlohmann::json& doc, const std::string& origin) {
  if (!doc.is_object() || doc.value("schema", "") != bands_schema_id)
    throw core::input_error(fmt::format("{}: expected schema '{}'", origin, bands_schema_id));
  for (const char* key : {"systems", "bands"})
    if (!doc.contains(key) || !doc.at(key).is_array())
      throw core::input_error(fmt::format("{}: expected an array '{}'", origin, key));
  for (std::size_t i = 0; i < doc.at("systems").size(); ++i) {
    const auto& j = doc.at("systems").at(i);
    const std::string where = fmt::format("{}: systems[{}]", origin, i);
    band_system s;
    s.id = band_text_field(j, "id", where);
    s.name = band_text_field(j, "name", where);
    s.gpu = band_words(j, "gpu");
    s.not_gpu = band_words(j, "not_gpu");
    if (j.contains("pcie_gen")) s.pcie_gen = static_cast<int>(band_number(j, "pcie_gen", where));
    if (j.contains("nic_gbps")) s.nic_gbps = band_number(j, "nic_gbps", where);
    s.link_layer = j.value("link_layer", "");
    if (s.gpu.empty() && !s.pcie_gen && !s.nic_gbps && s.link_layer.empty())
      throw core::input_error(where + ": a system must say how it is recognised");
    m_systems.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < doc.at("bands").size(); ++i) {
    const auto& j = doc.at("bands").at(i);
    const std::string where = fmt::format("{}: bands[{}]", origin, i);
    band b;
    b.system = band_text_field(j, "system", where);
    b.metric = band_text_field(j, "metric", where);
    b.low = band_number(j, "low", where);
    b.high = band_number(j, "high", where);
    if (j.contains("floor")) b.floor = band_number(j, "floor", where);
    b.unit = band_text_field(j, "unit", where);
    b.source = band_text_field(j, "source", where);
    b.date = band_text_field(j, "date", where);
    if (std::none_of(m_systems.begin(), m_systems.end(),
                     [&](const band_system& s) { return s.id == b.system; }))
      throw core::input_error(fmt::format("{}.system: no system '{}'", where, b.system));
    const auto& metrics = band_metrics();
    if (std::find(metrics.begin(), metrics.end(), b.metric) == metrics.end())
      throw core::input_error(fmt::format("{}.metric: '{}' is not a band metric", where, b.metric));
    if (!(b.low > 0) || b.high < b.low)
      throw core::input_error(where + ": expected 0 < low <= high");
    if (b.unit != "GB/s" && b.unit != "Gb/s" && b.unit != "us")
      throw core::input_error(fmt::format("{}.unit: '{}' is not GB/s, Gb/s or us", where, b.unit));
    m_bands.push_back(std::move(b));
  }
}

band_table band_table::builtin() {
  return band_table(nlohmann::json::parse(builtin_bands_json()), "built-in bands.json");
}

const band_system& band_table::system_of(const band& b) const {
  return *std::find_if(m_systems.begin(), m_systems.end(),
                       [&](const band_system& s) { return s.id == b.system; });
}

bool system_matches(const band_system& s, const band_context& c) {
  const auto& gpus = system_list(c.system, "gpus");
  if (!s.gpu.empty() && !gpu_matches(s, gpus)) return false;
  if (s.pcie_gen && !pcie_matches(*s.pcie_gen, gpus)) return false;
  if (s.nic_gbps && !nic_matches(*s.nic_gbps, c)) return false;
  if (!s.link_layer.empty() && !link_layer_matches(s.link_layer, c)) return false;
  return true;
}

const band* band_table::find(const std::string& metric, const band_context& context) const {
  for (const auto& s : m_systems) {
    if (!system_matches(s, context)) continue;
    for (const auto& b : m_bands)
      if (b.system == s.id && b.metric == metric) return &b;
  }
  return nullptr;
}

std::string band_text(const band& b) {
  // As published: 51-55, 23.94 (not 51.00-55.00).
  std::string out =
      b.low == b.high ? fmt::format("{:g}", b.low) : fmt::format("{:g}-{:g}", b.low, b.high);
  out += " " + b.unit;
  if (b.floor) out += fmt::format(", floor {:g}", *b.floor);
  return out;
}

std::optional<double> in_band_unit(double value, const std::string& unit, const band& b) {
  if (unit == b.unit) return value;
  if (unit == "GB/s" && b.unit == "Gb/s") return value * 8;
  if (unit == "Gb/s" && b.unit == "GB/s") return value / 8;
  return std::nullopt;
}

}  // namespace gpubench::reports::model

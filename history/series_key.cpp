#include "history/series_key.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include <fmt/format.h>

namespace gpubench::history {

namespace {

// The build of gpubench itself is not the machine: its compiler and hwloc stay out.
bool gpu_software(const std::string& key) {
  return key == "nvidia_driver" || key == "cuda_driver" || key == "cuda_runtime";
}

void copy_field(nlohmann::json& to, const nlohmann::json& from, const char* key) {
  if (from.is_object() && from.contains(key) && !from[key].is_null()) to[key] = from[key];
}

nlohmann::json gpu_models(const nlohmann::json& system) {
  std::vector<std::string> names;
  if (system.contains("gpus") && system["gpus"].is_array())
    for (const auto& g : system["gpus"])
      if (g.is_object() && g.contains("name") && g["name"].is_string())
        names.push_back(g["name"].get<std::string>());
  std::sort(names.begin(), names.end());
  return names;
}

nlohmann::json physical_nics(const nlohmann::json& system) {
  nlohmann::json out = nlohmann::json::array();
  if (!system.contains("nics") || !system["nics"].is_array()) return out;
  for (const auto& n : system["nics"]) {
    if (!n.is_object() || n.value("virtual", true)) continue;
    nlohmann::json nic = nlohmann::json::object();
    copy_field(nic, n, "name");
    copy_field(nic, n, "driver");
    copy_field(nic, n, "mtu");
    out.push_back(nic);
  }
  return out;
}

nlohmann::json rdma_firmware(const nlohmann::json& system) {
  nlohmann::json out = nlohmann::json::array();
  if (!system.contains("rdma_devices") || !system["rdma_devices"].is_array()) return out;
  for (const auto& d : system["rdma_devices"]) {
    if (!d.is_object()) continue;
    nlohmann::json dev = nlohmann::json::object();
    copy_field(dev, d, "name");
    copy_field(dev, d, "firmware");
    out.push_back(dev);
  }
  return out;
}

void flatten(const nlohmann::json& j, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (j.is_object() && !j.empty()) {
    for (const auto& [k, v] : j.items())
      flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else {
    out[prefix] = j.is_string() ? j.get<std::string>() : j.dump();
  }
}

}  // namespace

std::string series_key(const std::string& benchmark, const nlohmann::json& params,
                       std::uint64_t bytes, const std::string& host) {
  return fmt::format("{} {} @{} on {}", benchmark, params.dump(), bytes, host);
}

nlohmann::json fingerprint_detail(const nlohmann::json& system, const core::measure_kind& kind) {
  nlohmann::json d = nlohmann::json::object();
  if (!system.is_object()) return d;
  copy_field(d, system, "kernel");
  copy_field(d, system, "virtualization");
  if (system.contains("cpu") && system["cpu"].is_object() && system["cpu"].contains("model"))
    d["cpu"] = system["cpu"]["model"];
  const nlohmann::json software =
      system.contains("software") ? system["software"] : nlohmann::json::object();
  const bool on_gpu = kind.is(core::paths::host_gpu) || kind.is(core::paths::gpu_gpu) ||
                      kind.is(core::paths::collective);
  const bool on_network = kind.is(core::paths::network) || kind.is(core::paths::collective);
  if (on_gpu) {
    if (auto models = gpu_models(system); !models.empty()) d["gpus"] = models;
    if (software.is_object())
      for (const auto& [k, v] : software.items())
        if (gpu_software(k) && !v.is_null()) d[k] = v;
  }
  if (on_network) {
    if (auto nics = physical_nics(system); !nics.empty()) d["nics"] = nics;
    if (auto rdma = rdma_firmware(system); !rdma.empty()) d["rdma_devices"] = rdma;
    copy_field(d, software, "rdma_core");
  }
  if (kind.is(core::paths::collective)) {
    copy_field(d, software, "nccl");
    copy_field(d, software, "mpi");
  }
  return d;
}

std::string fingerprint_id(const nlohmann::json& detail) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const unsigned char c : detail.dump()) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

std::vector<std::string> fingerprint_changes(const nlohmann::json& before,
                                             const nlohmann::json& after) {
  std::map<std::string, std::string> a, b;
  flatten(before, "", a);
  flatten(after, "", b);
  std::vector<std::string> out;
  for (const auto& [k, v] : a) {
    const auto it = b.find(k);
    if (it == b.end())
      out.push_back(fmt::format("{}: {} -> (none)", k, v));
    else if (it->second != v)
      out.push_back(fmt::format("{}: {} -> {}", k, v, it->second));
  }
  for (const auto& [k, v] : b)
    if (!a.contains(k)) out.push_back(fmt::format("{}: (none) -> {}", k, v));
  return out;
}

}  // namespace gpubench::history

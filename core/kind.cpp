#include "core/kind.hpp"

#include <stdexcept>

namespace gpubench::core {

measure_kind host_memory_kind(std::vector<std::string> endpoints) {
  return {std::string(paths::host_memory), {}, {}, {}, std::move(endpoints)};
}
measure_kind host_gpu_kind(std::string_view direction, std::vector<std::string> endpoints) {
  return {std::string(paths::host_gpu), std::string(direction), {}, {}, std::move(endpoints)};
}
measure_kind gpu_gpu_kind(std::vector<std::string> endpoints) {
  return {std::string(paths::gpu_gpu), {}, {}, {}, std::move(endpoints)};
}
measure_kind network_kind(std::string_view transport, std::vector<std::string> endpoints) {
  return {std::string(paths::network), {}, std::string(transport), {}, std::move(endpoints)};
}
measure_kind collective_kind(std::string_view operation, std::vector<std::string> endpoints) {
  return {std::string(paths::collective), {}, {}, std::string(operation), std::move(endpoints)};
}

nlohmann::json to_json(const measure_kind& k) {
  nlohmann::json j = {{"path", k.path}};
  if (!k.direction.empty()) j["direction"] = k.direction;
  if (!k.transport.empty()) j["transport"] = k.transport;
  if (!k.operation.empty()) j["operation"] = k.operation;
  j["endpoints"] = k.endpoints;
  return j;
}

namespace {

std::string text_field(const nlohmann::json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_string()) throw std::invalid_argument(std::string(name) + ": expected a string");
  return it->get<std::string>();
}

}  // namespace

measure_kind kind_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("expected an object");
  measure_kind k;
  k.path = text_field(j, "path");
  if (k.path.empty()) throw std::invalid_argument("path: missing or empty");
  k.direction = text_field(j, "direction");
  k.transport = text_field(j, "transport");
  k.operation = text_field(j, "operation");
  if (const auto it = j.find("endpoints"); it != j.end()) {
    if (!it->is_array()) throw std::invalid_argument("endpoints: expected an array");
    for (const auto& e : *it) {
      if (!e.is_string()) throw std::invalid_argument("endpoints: expected strings");
      k.endpoints.push_back(e.get<std::string>());
    }
  }
  return k;
}

// Format 1.0 had these ids and no kind field; each entry says what its benchmark declares now.
measure_kind kind_of_format_1_0(std::string_view id) {
  if (id == "memory.host.copy") return host_memory_kind({"src_numa", "dst_numa"});
  if (id == "gpu.h2d") return host_gpu_kind(directions::to_gpu, {"gpu", "numa"});
  if (id == "gpu.d2h") return host_gpu_kind(directions::to_host, {"gpu", "numa"});
  if (id == "gpu.bidir") return host_gpu_kind(directions::both, {"gpu", "numa"});
  if (id == "gpu.host.latency") return host_gpu_kind({}, {"gpu", "numa"});
  if (id == "gpu.p2p.bandwidth") return gpu_gpu_kind({"src", "dst"});
  if (id == "gpu.p2p.latency") return gpu_gpu_kind({"gpu", "peer"});
  if (id == "net.tcp.latency" || id == "net.tcp.bandwidth") return network_kind("tcp", {"peer"});
  if (id == "net.rdma.latency" || id == "net.rdma.bandwidth")
    return network_kind("rdma", {"peer", "device"});
  if (id == "coll.allreduce") return collective_kind("allreduce", {"nodes"});
  return {};
}

}  // namespace gpubench::core

#include "core/system/system_probe.hpp"

#include "core/registry.hpp"
#include "core/system/nic_probe.hpp"

namespace gpubench::core {

nlohmann::json probe_system(const probe_roots& roots) {
  nlohmann::json j = probe_host(roots);
  // hwloc's sockets/cores/threads join the host probe's `cpu` rather than replace it.
  j.update(probe_numa(roots), /*merge_objects=*/true);
  j.update(probe_virtualization(roots));
  j["nics"] = nlohmann::json::array();
  for (const auto& nic : probe_nics(roots))
    j["nics"].push_back(to_json(nic));
  // Family probes merge into these; they exist even when no family adds anything.
  j["gpus"] = nlohmann::json::array();
  j["rdma_devices"] = nlohmann::json::array();
  j["software"] = probe_software(roots);
  return j;
}

nlohmann::json describe_system(const registry& registry) {
  nlohmann::json system = probe_system();
  for (const auto& probe : registry.system_probes())
    probe(system);
  return system;
}

}  // namespace gpubench::core

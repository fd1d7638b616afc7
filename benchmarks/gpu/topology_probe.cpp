// Adds the GPU part of the topology to the system block: gpus, gpu_pairs and the CUDA
// software versions, from sysfs always and from CUDA and NVML when they answer.
#include <exception>
#include <string>

#include "benchmarks/gpu/gpu_topology.hpp"
#include "core/registry.hpp"

namespace gpubench::benchmarks::gpu {

void register_gpu_topology(core::registry& r) {
  r.add_system_probe([](nlohmann::json& system) {
    const auto be = gpu::make_backend();
    gpu::gpu_topology topo;
    try {
      topo = gpu::load_topology(*be);
    } catch (const std::exception& e) {
      // A device that fails mid-probe must not cost the run its system block: keep sysfs.
      topo = gpu::gpu_topology{};
      topo.pci = gpu::scan_pci_gpus("/sys");
      topo.notes = {std::string("CUDA topology incomplete: ") + e.what()};
    }
    // Merge into the keys the core probe defaults; never replace the whole block.
    system["gpus"] = gpu::gpus_json(topo);
    system["gpu_pairs"] = gpu::gpu_pairs_json(topo);
    auto& software = system["software"];
    if (!software.is_object()) software = nlohmann::json::object();
    software.update(be->software());
    if (!topo.notes.empty()) system["gpu_notes"] = topo.notes;
  });
}

}  // namespace gpubench::benchmarks::gpu

#include "benchmarks/gpu/copy_sweep.hpp"

#include "core/errors.hpp"

namespace gpubench::benchmarks::gpu {

void measure_sweep(core::case_state& state, copy_job& job, const char* per_sample_key) {
  for (const std::uint64_t size : state.sizes()) {
    const core::sample_spec spec = job.prepare(size);
    auto& point = state.measure(size, spec, job.timer(), [&] { job.enqueue(); });
    point.extra[per_sample_key] = spec.operations;
    point.extra.update(job.point_extra(point.warmup));
    job.verify();
  }
}

core::requirement_status backend_requirement(int min_devices) {
  const auto b = make_backend();
  auto s = b->status();
  if (!s.met) return s;
  if (b->device_count() < min_devices)
    return core::requirement_status::missing("needs " + std::to_string(min_devices) +
                                             " CUDA devices: found " +
                                             std::to_string(b->device_count()));
  return s;
}

std::unique_ptr<backend> require_backend(int min_devices) {
  if (auto s = backend_requirement(min_devices); !s.met) throw core::skip_case(s.reason);
  return make_backend();
}

nlohmann::json gpus_context(const gpu_topology& t, const std::vector<int>& gpus) {
  nlohmann::json out = nlohmann::json::array();
  for (const int g : gpus) {
    const auto& d = t.devices.at(static_cast<std::size_t>(g));
    const auto numa = t.numa_of(g);
    nlohmann::json j = {{"index", g},
                        {"name", d.name},
                        {"pci_bus_id", d.pci_bus_id},
                        {"numa_node", numa ? nlohmann::json(*numa) : nlohmann::json(nullptr)}};
    if (const auto* p = t.pci_of(g)) j["pcie"] = to_json(usable_link(*p));
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace gpubench::benchmarks::gpu

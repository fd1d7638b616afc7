// gpu.h2d, gpu.d2h, gpu.bidir: host<->GPU copy bandwidth over a size sweep, pinned (on each
// NUMA node in turn) and pageable memory, copy engine and copy kernel, each GPU and all at once.
#include <algorithm>

#include "benchmarks/gpu/copy_sweep.hpp"
#include "benchmarks/gpu/gpu_cases.hpp"
#include "benchmarks/gpu/host_numa.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"

namespace gpubench::benchmarks::gpu {

namespace {

void host_copy_body(core::case_state& state, gpu::host_direction direction) {
  const auto be = gpu::require_backend(1);
  const auto topo = gpu::load_topology(*be);
  const auto sizes = state.sizes();
  const auto req = gpu::host_copy_request_of(state.params(), be->device_count(), direction,
                                             *std::max_element(sizes.begin(), sizes.end()));
  if (auto why = gpu::numa_node_refusal(gpu::host_numa_nodes(), *req.numa))
    throw core::skip_case(*why);
  const auto job = be->host_copy(req);
  const int directions = direction == gpu::host_direction::bidir ? 2 : 1;
  if (auto peak = topo.host_peak(req.gpus, directions)) state.set_peak(*peak);
  auto& ctx = state.context_info();
  ctx.update(job->context());
  ctx["gpus"] = gpu::gpus_context(topo, req.gpus);
  // Local means the host memory sits on the NUMA node of every GPU copying.
  bool known = true, local = true;
  for (const int g : req.gpus) {
    const auto node = topo.numa_of(g);
    known = known && node.has_value();
    local = local && node && static_cast<unsigned>(*node) == *req.numa;
  }
  ctx["numa_local"] = known ? nlohmann::json(local) : nlohmann::json(nullptr);
  gpu::measure_sweep(state, *job);
}

void add_host_copy(core::registry& r, const char* id, const char* description,
                   gpu::host_direction direction) {
  core::benchmark_def def;
  def.id = id;
  def.kind = core::host_gpu_kind(direction == gpu::host_direction::h2d   ? core::directions::to_gpu
                                 : direction == gpu::host_direction::d2h ? core::directions::to_host
                                                                         : core::directions::both,
                                 {"gpu", "numa"});
  def.suites = {"gpu"};
  def.description = description;
  def.metric = core::bandwidth_metric();
  def.sizes = {64u << 10, 1ull << 30, 64u << 20};
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.01;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 2.0;
  def.criteria.warmup_samples = 1;
  def.requirement = [](const core::run_context&) { return gpu::backend_requirement(1); };
  def.cases = [direction](const core::run_context&) {
    return gpu::host_copy_cases(gpu::make_backend()->device_count(),
                                gpu::numa_indexes(gpu::host_numa_nodes()), direction);
  };
  def.body = [direction](core::case_state& s) { host_copy_body(s, direction); };
  r.add(std::move(def));
}

}  // namespace

void register_gpu_host_copy(core::registry& r) {
  add_host_copy(r, "gpu.h2d",
                "host-to-GPU copy bandwidth (pinned/pageable, CE/SM, per NUMA node, all GPUs)",
                gpu::host_direction::h2d);
  add_host_copy(r, "gpu.d2h",
                "GPU-to-host copy bandwidth (pinned/pageable, CE/SM, per NUMA node, all GPUs)",
                gpu::host_direction::d2h);
  add_host_copy(r, "gpu.bidir",
                "host<->GPU copy bandwidth in both directions at once (sum of both)",
                gpu::host_direction::bidir);
}

}  // namespace gpubench::benchmarks::gpu

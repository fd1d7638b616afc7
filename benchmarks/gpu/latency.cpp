// gpu.host.latency and gpu.p2p.latency: pointer-chase load latency from a GPU to pinned
// host memory on each NUMA node, and to every peer GPU's memory, in microseconds.
#include "benchmarks/gpu/copy_sweep.hpp"
#include "benchmarks/gpu/gpu_cases.hpp"
#include "benchmarks/gpu/host_numa.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"

namespace gpubench::benchmarks::gpu {

namespace {

void latency_body(core::case_state& state, bool peer) {
  const auto be = gpu::require_backend(peer ? 2 : 1);
  const auto topo = gpu::load_topology(*be);
  const auto& params = state.params();
  gpu::latency_request req;
  req.gpu = params.at("gpu").get<int>();
  std::vector<int> gpus{req.gpu};
  if (peer) {
    req.peer = params.at("peer").get<int>();
    gpus.push_back(*req.peer);
  } else {
    req.numa = params.at("numa").get<unsigned>();
    if (auto why = gpu::numa_node_refusal(gpu::host_numa_nodes(), *req.numa))
      throw core::skip_case(*why);
  }
  const auto job = be->latency(req);
  auto& ctx = state.context_info();
  ctx.update(job->context());
  ctx["gpus"] = gpu::gpus_context(topo, gpus);
  if (peer) ctx["pair"] = gpu::to_json(topo.link(req.gpu, *req.peer));
  gpu::measure_sweep(state, *job, "loads_per_sample");
}

core::benchmark_def latency_def(const char* id, const char* description) {
  core::benchmark_def def;
  def.id = id;
  def.suites = {"gpu"};
  def.description = description;
  def.metric = core::latency_metric();
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.2;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 3.0;
  def.criteria.warmup_samples = 1;
  return def;
}

}  // namespace

void register_gpu_latency(core::registry& r) {
  auto host = latency_def("gpu.host.latency",
                          "GPU->host memory load latency (pointer chase), per NUMA node");
  host.requirement = [](const core::run_context&) { return gpu::backend_requirement(1); };
  host.cases = [](const core::run_context&) {
    return gpu::host_latency_cases(gpu::make_backend()->device_count(),
                                   gpu::numa_indexes(gpu::host_numa_nodes()));
  };
  host.body = [](core::case_state& s) { latency_body(s, false); };
  host.kind = core::host_gpu_kind({}, {"gpu", "numa"});
  r.add(std::move(host));

  auto p2p = latency_def("gpu.p2p.latency",
                         "GPU->peer GPU memory load latency (pointer chase), all pairs");
  p2p.requirement = [](const core::run_context&) { return gpu::backend_requirement(2); };
  p2p.cases = [](const core::run_context&) {
    return gpu::p2p_latency_cases(gpu::load_topology(*gpu::make_backend()));
  };
  p2p.body = [](core::case_state& s) { latency_body(s, true); };
  p2p.kind = core::gpu_gpu_kind({"gpu", "peer"});
  r.add(std::move(p2p));
}

}  // namespace gpubench::benchmarks::gpu

// gpu.p2p.bandwidth: GPU<->GPU copy bandwidth over NVLink or PCIe for every ordered pair,
// read and write, one way and both, copy engine and kernel; and staged through the host
// with peer access off, so the gain of P2P shows.
#include <algorithm>

#include "benchmarks/gpu/copy_sweep.hpp"
#include "benchmarks/gpu/gpu_cases.hpp"
#include "core/registry.hpp"

namespace gpubench::benchmarks::gpu {

namespace {

void p2p_bandwidth_body(core::case_state& state) {
  const auto be = gpu::require_backend(2);
  const auto topo = gpu::load_topology(*be);
  const auto sizes = state.sizes();
  const auto req =
      gpu::p2p_request_of(state.params(), *std::max_element(sizes.begin(), sizes.end()));
  const auto job = be->p2p_copy(req);
  if (auto peak = topo.p2p_peak(req.src, req.dst, !req.peer_access, req.bidir ? 2 : 1))
    state.set_peak(*peak);
  auto& ctx = state.context_info();
  ctx.update(job->context());
  ctx["gpus"] = gpu::gpus_context(topo, {req.src, req.dst});
  ctx["pair"] = gpu::to_json(topo.link(req.src, req.dst));
  gpu::measure_sweep(state, *job);
}

}  // namespace

void register_gpu_p2p_bandwidth(core::registry& r) {
  core::benchmark_def def;
  def.id = "gpu.p2p.bandwidth";
  def.kind = core::gpu_gpu_kind({"src", "dst"});
  def.suites = {"gpu"};
  def.description = "GPU<->GPU copy bandwidth over NVLink/PCIe, all pairs, P2P and staged";
  def.metric = core::bandwidth_metric();
  def.sizes = {64u << 10, 1ull << 30, 64u << 20};
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.01;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 2.0;
  def.criteria.warmup_samples = 1;
  def.requirement = [](const core::run_context&) { return gpu::backend_requirement(2); };
  def.cases = [](const core::run_context&) {
    return gpu::p2p_bandwidth_cases(gpu::load_topology(*gpu::make_backend()));
  };
  def.body = p2p_bandwidth_body;
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::gpu

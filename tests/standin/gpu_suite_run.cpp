#include "gpu_suite_run.hpp"

#include <vector>

#include "core/registry.hpp"
#include "core/runner.hpp"

namespace gpubench::benchmarks::gpu {
// The registration functions of the gpu family (the generated register_all calls them in
// the program).
void register_gpu_host_copy(core::registry& r);
void register_gpu_p2p_bandwidth(core::registry& r);
void register_gpu_latency(core::registry& r);
void register_gpu_topology(core::registry& r);
}  // namespace gpubench::benchmarks::gpu

namespace gpubench::tests::standin {

namespace {

core::registry gpu_registry() {
  core::registry r;
  benchmarks::gpu::register_gpu_host_copy(r);
  benchmarks::gpu::register_gpu_p2p_bandwidth(r);
  benchmarks::gpu::register_gpu_latency(r);
  benchmarks::gpu::register_gpu_topology(r);
  return r;
}

}  // namespace

core::result_file run_gpu_suite(const std::string& filter) {
  const core::registry reg = gpu_registry();
  core::run_context ctx;
  ctx.sizes = core::size_range{32u << 10, 64u << 10};
  // Each benchmark as registered, with a stopping rule for a functional test: one warm-up
  // and two or three samples per point, whatever their noise.
  std::vector<core::benchmark_def> defs;
  for (const core::benchmark_def* d : reg.select("gpu", filter)) {
    core::benchmark_def def = *d;
    def.criteria.warmup_samples = 1;
    def.criteria.min_samples = 2;
    def.criteria.max_samples = 3;
    def.criteria.min_time = 0;
    def.criteria.timeout = 10;
    defs.push_back(std::move(def));
  }
  std::vector<const core::benchmark_def*> selected;
  for (const auto& d : defs)
    selected.push_back(&d);
  core::result_file file;
  file.run.suite = "gpu";
  file.run.argv = {"standin_tests", "gpu suite on the CPU stand-in", filter};
  for (const auto& probe : reg.system_probes())
    probe(file.system);
  core::runner(ctx, {}).run(selected, file);
  return file;
}

void mark_as_functional_test(core::result_file& file) {
  for (auto& c : file.results) {
    nlohmann::json checked = nlohmann::json::array();
    for (const auto& p : c.points)
      checked.push_back({{"bytes", p.bytes}, {"samples", p.samples.size()}});
    c.context["standin"] = {
        {"what",
         "a functional test on the CPU stand-in of the CUDA runtime (simulated GPUs): "
         "the code ran and its data checks passed; it measured no GPU, so no "
         "bandwidth or latency is reported"},
        {"points_checked", checked}};
    c.points.clear();
    c.peak.reset();
  }
}

}  // namespace gpubench::tests::standin

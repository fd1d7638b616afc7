// memory.host.copy: host memcpy bandwidth over a size sweep, one thread and all cores, and
// on every NUMA node pair: the baseline that host<->GPU copies are judged against.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "benchmarks/memory/copy_team.hpp"
#include "benchmarks/memory/numa_buffer.hpp"
#include "core/case_state.hpp"
#include "core/registry.hpp"
#include "core/units.hpp"

namespace gpubench::benchmarks::memory {

namespace {

// Small copies repeat inside a sample until it moves at least this much, so a sample lasts
// tens of microseconds and the clock's own cost stays below 0.1 %.
constexpr std::size_t min_bytes_per_sample = 8u << 20;

std::vector<nlohmann::json> host_copy_cases(const core::run_context&) {
  const numa_topology topo;
  const unsigned cores = topo.cores();
  std::vector<nlohmann::json> thread_counts{1};
  if (cores > 1) thread_counts.emplace_back(cores);
  std::vector<core::axis> axes{{"threads", thread_counts}};
  const auto nodes = topo.nodes();
  if (nodes.size() > 1) {
    std::vector<nlohmann::json> node_values(nodes.begin(), nodes.end());
    axes.push_back({"src_numa", node_values});
    axes.push_back({"dst_numa", node_values});
  }
  return core::cartesian(axes);
}

std::optional<unsigned> numa_param(const nlohmann::json& params, const char* key) {
  if (!params.contains(key)) return std::nullopt;
  return params.at(key).get<unsigned>();
}

void host_copy_body(core::case_state& state) {
  const numa_topology topo;
  const auto& params = state.params();
  const auto threads = params.at("threads").get<unsigned>();
  const auto src_node = numa_param(params, "src_numa");
  const auto dst_node = numa_param(params, "dst_numa");
  const auto sizes = state.sizes();
  const std::size_t max_size = *std::max_element(sizes.begin(), sizes.end());

  host_buffer src(topo, max_size, src_node);
  host_buffer dst(topo, max_size, dst_node);
  for (std::size_t i = 0; i < max_size; ++i)
    src.data()[i] = static_cast<std::byte>(i * 131u);
  // Threads run on the source's node: reads stay local, the copy crosses to dst's node.
  copy_team team(topo, threads, src_node);
  if (src_node || dst_node)
    state.context_info()["placement"] = "threads bound to the source NUMA node";

  for (const std::uint64_t size : sizes) {
    const std::size_t reps = std::max<std::size_t>(1, min_bytes_per_sample / size);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(size) * static_cast<double>(reps);
    spec.operations = static_cast<double>(reps);
    state.measure(size, spec, [&] { team.copy(dst.data(), src.data(), size, reps); });
    // The data check stays outside the timed samples.
    if (std::memcmp(dst.data(), src.data(), size) != 0)
      throw std::runtime_error("copy of " + core::format_bytes(size) +
                               " produced different bytes: the measurement is not valid");
  }
}

}  // namespace

void register_memory_host_copy(core::registry& r) {
  core::benchmark_def def;
  def.id = "memory.host.copy";
  def.kind = core::host_memory_kind({"src_numa", "dst_numa"});
  def.suites = {"memory"};
  def.description = "host memcpy bandwidth, one thread and all cores, per NUMA node pair";
  def.metric = core::bandwidth_metric();
  def.sizes = {4u << 10, 1ull << 30, 64u << 20};
  def.criteria.min_samples = 10;
  def.criteria.min_time = 0.02;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 1.0;
  def.criteria.warmup_samples = 1;
  def.cases = host_copy_cases;
  def.body = host_copy_body;
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::memory

// Cost of describing this machine (the `system` block every run and `gpubench topo` start
// with): sysfs and procfs reads, getifaddrs, cpuid and an hwloc topology load.
#include <benchmark/benchmark.h>

#include "core/system/nic_probe.hpp"
#include "core/system/system_probe.hpp"

namespace {

void probe_system_live(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(gpubench::core::probe_system());
}
BENCHMARK(probe_system_live)->Unit(benchmark::kMillisecond);

void probe_nics_live(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(gpubench::core::probe_nics({}));
}
BENCHMARK(probe_nics_live)->Unit(benchmark::kMicrosecond);

}  // namespace

// Cost of summarize() over a point's samples (sort, percentiles, moments).
#include <benchmark/benchmark.h>

#include "benchmarks/micro/sample_data.hpp"
#include "core/statistics.hpp"

namespace {

void summarize_samples(benchmark::State& state) {
  const auto values =
      gpubench::benchmarks::micro::noisy_samples(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(gpubench::core::summarize(values));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(summarize_samples)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);

void median_noise(benchmark::State& state) {
  const auto values =
      gpubench::benchmarks::micro::noisy_samples(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(gpubench::core::median_relative_noise(values));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(median_noise)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);

}  // namespace

// Cost of stopping_rule::add per sample, including its periodic median-noise estimate, for
// points of 1e3 to 1e5 samples (tiny messages reach the latter).
#include <benchmark/benchmark.h>

#include "benchmarks/micro/sample_data.hpp"
#include "core/stopping.hpp"

namespace {

void stopping_rule_add(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto values = gpubench::benchmarks::micro::noisy_samples(n);
  gpubench::core::stopping_criteria c;
  // Never stop early: every sample pays the full bookkeeping, the worst case.
  c.min_time = 0;
  c.max_noise = 0;
  c.timeout = 1e9;
  c.max_samples = n + 1;
  for (auto _ : state) {
    gpubench::core::stopping_rule rule(c);
    for (std::size_t i = 0; i < n; ++i)
      benchmark::DoNotOptimize(rule.add(values[i], static_cast<double>(i) * 1e-6));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(stopping_rule_add)->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);

}  // namespace

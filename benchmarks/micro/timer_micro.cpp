// Cost of one timed sample's clock reads: what the steady timer adds to every sample.
#include <benchmark/benchmark.h>

#include "core/timer.hpp"

namespace {

void steady_timer_start_stop(benchmark::State& state) {
  gpubench::core::steady_timer t;
  for (auto _ : state) {
    t.start();
    t.stop();
    benchmark::DoNotOptimize(t.seconds());
  }
}
BENCHMARK(steady_timer_start_stop);

// The runner holds the timer through the base class (CUDA events plug in there).
void steady_timer_virtual(benchmark::State& state) {
  gpubench::core::steady_timer concrete;
  gpubench::core::timer& t = concrete;
  benchmark::DoNotOptimize(&t);
  for (auto _ : state) {
    t.start();
    t.stop();
    benchmark::DoNotOptimize(t.seconds());
  }
}
BENCHMARK(steady_timer_virtual);

void stopwatch_seconds(benchmark::State& state) {
  const gpubench::core::stopwatch w;
  for (auto _ : state)
    benchmark::DoNotOptimize(w.seconds());
}
BENCHMARK(stopwatch_seconds);

}  // namespace

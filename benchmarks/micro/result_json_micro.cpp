// Cost of serialising a large result (as the runner rewrites the file after every finished
// benchmark) and of reading it back (report, compare).
#include <benchmark/benchmark.h>

#include <string>

#include "benchmarks/micro/sample_data.hpp"
#include "core/result.hpp"
#include "core/result_json.hpp"

namespace {

using gpubench::core::result_file;

// An interconnect-sized run: 24 cases of 24 sizes with 200 raw samples per point.
result_file large_result() {
  result_file f;
  f.tool.version = "0.0.0";
  f.run = {"host-20260101T000000Z-000000",
           "2026-01-01T00:00:00Z",
           "2026-01-01T00:01:00Z",
           {"gpubench", "run", "--suite", "interconnect"},
           "interconnect",
           gpubench::core::run_status::complete};
  f.system = {{"host", "host"}, {"numa_nodes", 2}, {"nics", nlohmann::json::array()}};
  const auto samples = gpubench::benchmarks::micro::noisy_samples(200);
  for (int c = 0; c < 24; ++c) {
    gpubench::core::case_result r;
    r.benchmark = "net.tcp.bandwidth";
    r.params = {{"peer", "198.18.0.2:18515"}, {"streams", c + 1}, {"direction", "uni"}};
    r.metric = "bandwidth";
    r.unit = "GB/s";
    r.better = "higher";
    r.context = {{"interface", "eth0"}, {"mtu", 9000}};
    for (int s = 0; s < 24; ++s) {
      gpubench::core::point_result p;
      p.bytes = 1ull << (s + 6);
      p.samples = samples;
      p.stats = gpubench::core::summarize(p.samples);
      p.extra = {{"cpu_seconds_per_gb", 0.61}};
      p.stopped_by = "noise";
      p.seconds = 0.05;
      r.points.push_back(std::move(p));
    }
    f.results.push_back(std::move(r));
  }
  return f;
}

void result_to_json_text(benchmark::State& state) {
  const auto file = large_result();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = gpubench::core::to_json(file).dump(1);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["file_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(result_to_json_text)->Unit(benchmark::kMillisecond);

void result_from_json_text(benchmark::State& state) {
  const std::string text = gpubench::core::to_json(large_result()).dump(1);
  for (auto _ : state) {
    auto file = gpubench::core::result_from_json(nlohmann::json::parse(text), "micro.json");
    benchmark::DoNotOptimize(file.results.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(result_from_json_text)->Unit(benchmark::kMillisecond);

}  // namespace

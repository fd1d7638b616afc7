#include "transports/collective/allreduce_driver.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/units.hpp"

namespace gpubench::coll {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void check_data(allreduce_backend& backend, process_group& group, const allreduce_request& req,
                std::uint64_t count, std::uint32_t seed) {
  backend.fill_check(count, seed);
  group.barrier();
  backend.run(count, 1, req.in_place);
  const std::uint64_t wrong = backend.count_wrong(count, seed);
  const std::uint64_t total = group.sum(wrong);
  const std::uint64_t ranks_wrong = group.sum(wrong > 0 ? 1 : 0);
  if (total > 0)
    throw std::runtime_error(
        fmt::format("data check failed: allreduce (sum) of {} {} ({}) over {} ranks gave {} wrong "
                    "element(s) on {} rank(s); the measurement is not valid",
                    count, to_string(req.type), core::format_bytes(count * dtype_size(req.type)),
                    backend.ranks(), total, ranks_wrong));
}

}  // namespace

scaling_row measure_allreduce(core::case_state& state, allreduce_backend& backend,
                              process_group& group, const allreduce_request& req, watchdog* dog) {
  const std::size_t esize = dtype_size(req.type);
  std::vector<std::uint64_t> counts;
  for (const std::uint64_t s : state.sizes())
    if (s >= esize) counts.push_back(s / esize);
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.empty())
    throw core::skip_case("every message size is smaller than one " + to_string(req.type) +
                          " element");
  backend.prepare(*std::max_element(counts.begin(), counts.end()));

  const int ranks = backend.ranks();
  const double factor = allreduce_bus_factor(ranks);
  // Every rank sees the same reduced times, but their clocks differ: stop together.
  state.set_consensus([&group](bool stop) { return group.any(stop); });
  if (ranks == 1)
    state.context_info()["note"] =
        "a single rank moves no bus bytes: busbw is 0 by definition and the values are algbw";

  scaling_row row;
  std::uint32_t seed = 1;
  for (const std::uint64_t count : counts) {
    const std::uint64_t bytes = count * esize;
    if (req.check) check_data(backend, group, req, count, seed++);
    const int iters = iterations_per_sample(bytes);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(bytes) * (ranks > 1 ? factor : 1.0);
    std::vector<rank_times> times;
    const std::string what =
        fmt::format("measuring allreduce of {} over {} ranks", core::format_bytes(bytes), ranks);
    if (dog) dog->beat(what);
    auto& point = state.measure_timed(bytes, spec, [&] {
      group.barrier();
      const double seconds = backend.run(count, iters, req.in_place) / iters;
      const rank_times t = group.reduce_time(seconds);
      times.push_back(t);
      if (dog) dog->beat(what);
      return t.avg;
    });
    std::vector<double> avg, lo, hi;
    for (std::size_t i = std::min(point.warmup, times.size()); i < times.size(); ++i) {
      avg.push_back(times[i].avg);
      lo.push_back(times[i].min);
      hi.push_back(times[i].max);
    }
    const double t = median(avg);
    const bandwidths bw = allreduce_bandwidths(static_cast<double>(bytes), t, ranks);
    point.extra["algbw"] = bw.algbw;
    point.extra["busbw"] = bw.busbw;
    point.extra["time_us"] = t * 1e6;
    point.extra["time_us_rank_min"] = median(lo) * 1e6;
    point.extra["time_us_rank_max"] = median(hi) * 1e6;
    point.extra["iterations_per_sample"] = iters;
    point.extra["elements"] = count;
    if (req.check) point.extra["check"] = "passed";
    if (count == counts.front()) {
      row.small_bytes = bytes;
      row.small_time_us = t * 1e6;
      row.small_busbw = bw.busbw;
    }
    row.large_bytes = bytes;
    row.large_busbw = bw.busbw;
  }
  row.ranks = ranks;
  return row;
}

}  // namespace gpubench::coll

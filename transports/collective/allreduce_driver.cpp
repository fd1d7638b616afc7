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
                              process_group& group, const allreduce_request& req,
                              const progress_fn& progress) {
  const auto beat = [&progress](const std::string& what) {
    if (progress) progress(what);
  };
  const std::size_t esize = dtype_size(req.type);
  std::vector<std::uint64_t> counts;
  for (const std::uint64_t s : state.sizes())
    if (s >= esize) counts.push_back(s / esize);
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.empty())
    throw core::skip_case("every message size is smaller than one " + to_string(req.type) +
                          " element");
  const int ranks = backend.ranks();
  if (auto why = single_rank_reason(ranks)) throw core::skip_case(*why);
  backend.prepare(*std::max_element(counts.begin(), counts.end()));

  const double factor = allreduce_bus_factor(ranks);
  // Every rank sees the same reduced times, but their clocks differ: stop together.
  state.set_consensus([&group](bool stop) { return group.any(stop); });

  scaling_row row;
  std::uint32_t seed = 1;
  for (const std::uint64_t count : counts) {
    const std::uint64_t bytes = count * esize;
    const std::string what =
        fmt::format("measuring allreduce of {} over {} ranks", core::format_bytes(bytes), ranks);
    beat(what);
    if (req.check) check_data(backend, group, req, count, seed++);
    // One operation, untimed, sizes the samples: the slowest rank's time decides, so every
    // rank runs the same number of operations.
    group.barrier();
    const double one = group.reduce_time(backend.run(count, 1, req.in_place)).max;
    const int iters = ops_per_sample(one, 20, 1e-3, 100000, req.sample_limit_s);
    beat(what);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(bytes) * factor;
    std::vector<rank_times> times;
    auto& point = state.measure_timed(bytes, spec, [&] {
      group.barrier();
      const double seconds = backend.run(count, iters, req.in_place) / iters;
      const rank_times t = group.reduce_time(seconds);
      times.push_back(t);
      beat(what);
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

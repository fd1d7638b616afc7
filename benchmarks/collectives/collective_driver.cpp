#include "benchmarks/collectives/collective_driver.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "benchmarks/collectives/data_check.hpp"
#include "benchmarks/collectives/sweep_guard.hpp"
#include "core/errors.hpp"
#include "core/statistics.hpp"
#include "core/units.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// nccl-tests times 20 operations back to back after one barrier; fewer only where a sample
// would outlast its limit (recorded as extra "min_iterations").
constexpr int min_ops_per_sample = 20;

// The spread of single calls inside the timed streams of a point's counted samples, where the
// backend times each call (extra fields beside the headline, never the headline): the fastest
// call of any rank, the slowest, and the highest of the ranks' 99th percentiles. Every member
// calls it (collectives inside); nothing is recorded when no member has call times.
void record_call_spread(core::point_result& point, transports::process_group& group,
                        const std::vector<std::vector<double>>& calls) {
  std::vector<double> mine;
  for (std::size_t i = std::min(point.warmup, calls.size()); i < calls.size(); ++i)
    mine.insert(mine.end(), calls[i].begin(), calls[i].end());
  if (!group.any(!mine.empty())) return;
  std::sort(mine.begin(), mine.end());
  const bool none = mine.empty();  // a member without call times adds nothing
  const double lo = none ? std::numeric_limits<double>::infinity() : mine.front();
  const double hi = none ? 0 : mine.back();
  const double p99 = none ? 0 : core::percentile_sorted(mine, 0.99);
  point.extra["op_time_us_min"] = group.reduce_time(lo).min * 1e6;
  point.extra["op_time_us_p99"] = group.reduce_time(p99).max * 1e6;
  point.extra["op_time_us_max"] = group.reduce_time(hi).max * 1e6;
}

}  // namespace

scaling_row measure_collective(core::case_state& state, const collective_op& op,
                               transports::collective_backend& backend,
                               transports::process_group& group, const measure_request& req,
                               const transports::progress_fn& progress) {
  const auto beat = [&progress](const std::string& what) {
    if (progress) progress(what);
  };
  const std::size_t esize = dtype_size(req.type);
  const int ranks = backend.ranks();
  if (auto why = op.no_bandwidth(ranks)) throw core::skip_case(*why);
  // The messages as the operation takes them: rounded down to a multiple of the ranks where
  // it splits them, sizes below one element per rank left out.
  std::vector<std::uint64_t> counts;
  for (const std::uint64_t s : state.sizes())
    if (const std::uint64_t total = op.counts(s / esize, ranks).total; total > 0)
      counts.push_back(total);
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.empty())
    throw core::skip_case(fmt::format("every message size is smaller than one {} element{}",
                                      to_string(req.type),
                                      op.counts(1, ranks).total == 0 ? " per rank" : ""));
  std::uint64_t max_send = 0, max_recv = 0;
  for (const std::uint64_t count : counts) {
    const op_counts c = op.counts(count, ranks);
    max_send = std::max(max_send, c.send);
    max_recv = std::max(max_recv, c.recv);
  }
  // A rank that cannot make its buffers (out of GPU memory) fails the case on every rank
  // at once: the others would wait for it in their first collective until the watchdog.
  std::string failed;
  try {
    backend.prepare(max_send * esize, max_recv * esize);
  } catch (const std::exception& e) {
    failed = e.what();
  }
  if (group.any(!failed.empty()))
    throw std::runtime_error(failed.empty() ? "another rank could not make its buffers (its "
                                              "message says why)"
                                            : failed);

  const double factor = op.bus_factor(ranks);
  // Every rank sees the same reduced times, but their clocks differ: stop together, also when
  // one of them is interrupted (one call: bit 0 the stopping rule, bit 1 the interrupt).
  state.set_consensus([&group](core::sample_vote mine) {
    const std::uint32_t all = group.any_bits((mine.stop ? 1u : 0u) | (mine.interrupted ? 2u : 0u));
    return core::sample_vote{(all & 1u) != 0, (all & 2u) != 0};
  });

  scaling_row row;
  std::uint32_t seed = 1;
  std::vector<std::uint64_t> planned;
  for (const std::uint64_t count : counts)
    planned.push_back(count * esize);
  sweep_guard sweep(state, group, std::move(planned));
  for (const std::uint64_t count : counts) {
    const std::uint64_t bytes = count * esize;
    if (sweep.over_budget(bytes)) break;
    const op_counts c = op.counts(count, ranks);
    const transports::call_args call{op.call(), c.call, req.in_place};
    const std::string what = fmt::format("measuring {} of {} over {} ranks", op.name(),
                                         core::format_bytes(bytes), ranks);
    beat(what);
    if (req.check) check_data(op, backend, group, {req.type, req.in_place, c, count, seed++});
    // One operation of this size, untimed, before anything is sized or timed: NCCL (2.22 on)
    // connects the ranks at the first call that needs a connection, per algorithm and
    // protocol, so that call includes the set-up, and samples sized from it would hold far
    // fewer operations than meant. One is enough for the set-up; the runner's warm-up samples
    // do the rest, and more operations of a large size could outlast the stall watchdog.
    // A beat after each barrier: the watchdog's clock and the backend's deadline (three
    // quarters of it) then start together, and a slow barrier cannot let the watchdog end the
    // job before the backend has aborted the operation and said why.
    group.barrier();
    beat(what);
    backend.run(call, 1);
    beat(what);
    // Then one operation sizes the samples: the slowest rank's time decides, so every rank
    // runs the same number of operations.
    group.barrier();
    beat(what);
    const double one = group.reduce_time(backend.run(call, 1)).max;
    // As nccl-tests: at least 20 operations back to back (more where that is under 1 ms, so
    // the barrier's skew stays out of small messages); one operation alone after the idle
    // gap between samples would time the idle link, not the stream. Fewer only when 20 would
    // outlast the sample's limit (a slow link), and the point says so.
    const int iters = ops_per_sample(one, min_ops_per_sample, 1e-3, 100000, req.sample_limit_s);
    beat(what);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(bytes) * factor;
    spec.point_limit_s = sweep.point_limit(bytes, one * iters);
    std::vector<transports::rank_times> times;
    std::vector<std::vector<double>> calls;
    auto& point = state.measure_timed(bytes, spec, [&] {
      // The timed region is nccl-tests': one barrier, `iters` calls back to back, each rank's
      // own clock, the mean per call; then the average over the ranks. The stopping vote and
      // this reduction come after the clocks stop.
      group.barrier();
      beat(what);
      std::vector<double> each;
      const double seconds = backend.run_each(call, iters, each) / iters;
      const transports::rank_times t = group.reduce_time(seconds);
      times.push_back(t);
      calls.push_back(std::move(each));
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
    const bandwidths bw = bandwidths_of(static_cast<double>(bytes), t, factor);
    point.extra["algbw"] = bw.algbw;
    point.extra["busbw"] = bw.busbw;
    point.extra["time_us"] = t * 1e6;
    point.extra["time_us_rank_avg"] = median(avg) * 1e6;
    point.extra["time_us_rank_min"] = median(lo) * 1e6;
    point.extra["time_us_rank_max"] = median(hi) * 1e6;
    point.extra["iterations_per_sample"] = iters;
    if (iters < min_ops_per_sample) point.extra["min_iterations"] = min_ops_per_sample;
    point.extra["elements"] = count;
    record_call_spread(point, group, calls);
    if (req.check) point.extra["check"] = "passed";
    if (count == counts.front()) {
      row.small_bytes = bytes;
      row.small_time_us = t * 1e6;
      row.small_busbw = bw.busbw;
    }
    row.large_bytes = bytes;
    row.large_busbw = bw.busbw;
    if (sweep.bandwidth_bound(bytes, bw.busbw)) break;
  }
  row.ranks = ranks;
  return row;
}

}  // namespace gpubench::benchmarks::collectives

#include "benchmarks/collectives/collective_driver.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "benchmarks/collectives/sweep_guard.hpp"
#include "core/errors.hpp"
#include "core/units.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Fills every local rank's buffers, runs one call, and counts the wrong elements over the
// group: outside timing, with a seed of its own per size.
void check_data(const collective_op& op, transports::collective_backend& backend,
                transports::process_group& group, const measure_request& req,
                const op_counts& counts, std::uint64_t count, std::uint32_t seed) {
  const std::size_t esize = dtype_size(req.type);
  const int ranks = backend.ranks();
  const auto local = backend.local_ranks();
  std::vector<std::byte> send(counts.send * esize), recv(counts.recv * esize);
  for (std::size_t i = 0; i < local.size(); ++i) {
    op.fill({req.type, local[i], ranks, seed, counts, req.in_place}, send, recv);
    backend.write(transports::buffer_role::send, i, send);
    backend.write(transports::buffer_role::recv, i, recv);
  }
  group.barrier();
  backend.run({op.call(), counts.call, req.in_place}, 1);
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < local.size(); ++i) {
    backend.read(transports::buffer_role::recv, i, recv);
    wrong += op.count_wrong({req.type, local[i], ranks, seed, counts, req.in_place}, recv);
  }
  const std::uint64_t total = group.sum(wrong);
  const std::uint64_t ranks_wrong = group.sum(wrong > 0 ? 1 : 0);
  if (total > 0)
    throw std::runtime_error(
        fmt::format("data check failed: {} of {} {} ({}) over {} ranks gave {} wrong "
                    "element(s) on {} rank(s); the measurement is not valid",
                    op.label(), count, to_string(req.type), core::format_bytes(count * esize),
                    ranks, total, ranks_wrong));
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
  backend.prepare(max_send * esize, max_recv * esize);

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
    if (req.check) check_data(op, backend, group, req, c, count, seed++);
    // One operation of this size, untimed, before anything is sized or timed: NCCL (2.22 on)
    // connects the ranks at the first call that needs a connection, per algorithm and
    // protocol, so that call includes the set-up, and samples sized from it would hold far
    // fewer operations than meant. One is enough for the set-up; the runner's warm-up samples
    // do the rest, and more operations of a large size could outlast the stall watchdog.
    group.barrier();
    backend.run(call, 1);
    beat(what);
    // Then one operation sizes the samples: the slowest rank's time decides, so every rank
    // runs the same number of operations.
    group.barrier();
    const double one = group.reduce_time(backend.run(call, 1)).max;
    // At least 1 operation and 1 ms; a rooted operation 20 back to back, as nccl-tests: one
    // broadcast alone is its tree's depth in link times, a stream of them is pipelined.
    const int iters = ops_per_sample(one, op.rooted() ? 20 : 1, 1e-3, 100000, req.sample_limit_s);
    beat(what);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(bytes) * factor;
    spec.point_limit_s = sweep.point_limit(bytes, one * iters);
    std::vector<transports::rank_times> times;
    auto& point = state.measure_timed(bytes, spec, [&] {
      group.barrier();
      const double seconds = backend.run(call, iters) / iters;
      const transports::rank_times t = group.reduce_time(seconds);
      times.push_back(t);
      beat(what);
      // The average over the ranks, as nccl-tests; a rooted operation's root returns once its
      // data is handed off (a 1-operation sample would count data not yet delivered), so it
      // ends when the slowest rank is done (samples of 1 ms or more keep the barrier's exit
      // skew small beside it).
      return op.rooted() ? t.max : t.avg;
    });
    std::vector<double> avg, lo, hi;
    for (std::size_t i = std::min(point.warmup, times.size()); i < times.size(); ++i) {
      avg.push_back(times[i].avg);
      lo.push_back(times[i].min);
      hi.push_back(times[i].max);
    }
    const double t = median(op.rooted() ? hi : avg);
    const bandwidths bw = bandwidths_of(static_cast<double>(bytes), t, factor);
    point.extra["algbw"] = bw.algbw;
    point.extra["busbw"] = bw.busbw;
    point.extra["time_us"] = t * 1e6;
    point.extra["time_us_rank_avg"] = median(avg) * 1e6;
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
    if (sweep.bandwidth_bound(bytes, bw.busbw)) break;
  }
  row.ranks = ranks;
  return row;
}

}  // namespace gpubench::benchmarks::collectives

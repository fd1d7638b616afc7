// The handle a benchmark body gets for one case: its parameters and sizes, and measure(),
// which owns warm-up, timing, the stopping rule and the statistics of each point.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/benchmark.hpp"
#include "core/result.hpp"
#include "core/run_context.hpp"
#include "core/timer.hpp"

namespace gpubench::core {

// What one sample does, so the runner can turn its duration into the metric's value:
// bandwidth = bytes / seconds (GB/s), latency = seconds / operations / divisor (us).
struct sample_spec {
  double bytes = 0;            // bytes moved by one sample
  double operations = 1;       // operations timed in one sample
  double latency_divisor = 1;  // 2 when a round trip is reported one-way
  // The point's time limit in place of the criteria's timeout (a sweep that shares a case's
  // time budget out over its points); 0: the criteria's.
  double point_limit_s = 0;
};

// The message sizes of a case of `def`: --sizes if given, else the benchmark's sweep
// (quick-aware).
std::vector<std::uint64_t> case_sizes(const benchmark_def& def, const run_context& ctx);

// One rank's word after a sample, and the group's after agreeing (any member's): the stopping
// rule is met, the run is interrupted.
struct sample_vote {
  bool stop = false;
  bool interrupted = false;
};

class case_state {
 public:
  using point_callback = std::function<void(const case_result&, const point_result&)>;

  case_state(const benchmark_def& def, const run_context& ctx, case_result& result,
             point_callback on_point = {});

  const nlohmann::json& params() const { return m_result.params; }
  const run_context& context() const { return m_ctx; }
  const benchmark_def& definition() const { return m_def; }
  // The message sizes of this case: --sizes if given, else the benchmark's sweep (quick-aware).
  std::vector<std::uint64_t> sizes() const;

  // Times `op` (one sample) with a steady clock, or with `t` (CUDA events, ...).
  point_result& measure(std::uint64_t bytes, const sample_spec& spec,
                        const std::function<void()>& op);
  point_result& measure(std::uint64_t bytes, const sample_spec& spec, timer& t,
                        const std::function<void()>& op);
  // `op` runs one sample and returns its duration in seconds, measured by itself (device
  // timers, times reduced across MPI ranks). A point that stopped with fewer samples than the
  // rule asks (its time limit came first) says so: extra "min_samples", the number asked.
  point_result& measure_timed(std::uint64_t bytes, const sample_spec& spec,
                              const std::function<double()>& op);
  // `op` runs one sample and returns its value in the metric's unit, computed by itself (a
  // bandwidth sample of fixed duration, whose bytes are counted, not fixed in advance).
  point_result& measure_value(std::uint64_t bytes, const sample_spec& spec,
                              const std::function<double()>& op);

  // A point measured by another process under this benchmark's own rules (a child run under
  // mpirun that rank 0 reported back): recorded and reported as it is, never re-measured.
  point_result& add_measured_point(point_result p);

  void set_peak(peak_info peak) { m_result.peak = std::move(peak); }
  // Where the case ran: peer, interface, device, transport (goes to the result's context).
  nlohmann::json& context_info() { return m_result.context; }

  // For multi-process cases: every rank must stop a point at the same sample, also when one of
  // them is interrupted (a rank that left alone would leave the others in a collective).
  // `agree` receives this rank's vote and returns the collective one; the interrupt is then
  // looked at only through it, after each sample (warm-up samples run on).
  void set_consensus(std::function<sample_vote(sample_vote)> agree) { m_agree = std::move(agree); }

 private:
  double to_metric(double seconds, const sample_spec& spec) const;

  const benchmark_def& m_def;
  const run_context& m_ctx;
  case_result& m_result;
  point_callback m_on_point;
  std::function<sample_vote(sample_vote)> m_agree;
};

}  // namespace gpubench::core

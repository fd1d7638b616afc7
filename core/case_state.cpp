#include "core/case_state.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/statistics.hpp"
#include "core/stopping.hpp"
#include "core/units.hpp"

namespace gpubench::core {

case_state::case_state(const benchmark_def& def, const run_context& ctx, case_result& result,
                       point_callback on_point)
    : m_def(def), m_ctx(ctx), m_result(result), m_on_point(std::move(on_point)) {}

std::vector<std::uint64_t> case_sizes(const benchmark_def& def, const run_context& ctx) {
  if (def.sizes.min == 0) return {0};
  if (ctx.sizes) return sweep(*ctx.sizes);
  const std::uint64_t max = ctx.quick && def.sizes.quick_max
                                ? std::min(def.sizes.quick_max, def.sizes.max)
                                : def.sizes.max;
  return power_of_two_sweep(def.sizes.min, max);
}

std::vector<std::uint64_t> case_state::sizes() const {
  return case_sizes(m_def, m_ctx);
}

double case_state::to_metric(double seconds, const sample_spec& spec) const {
  if (!(seconds > 0) || !std::isfinite(seconds))
    throw std::runtime_error("a sample took " + std::to_string(seconds) +
                             " s: the timer returned no usable duration");
  if (m_def.metric.name == "bandwidth") return spec.bytes / seconds / 1e9;
  return seconds / spec.operations / spec.latency_divisor * 1e6;
}

point_result& case_state::measure(std::uint64_t bytes, const sample_spec& spec,
                                  const std::function<void()>& op) {
  steady_timer t;
  return measure(bytes, spec, t, op);
}

point_result& case_state::measure(std::uint64_t bytes, const sample_spec& spec, timer& t,
                                  const std::function<void()>& op) {
  return measure_timed(bytes, spec, [&] {
    t.start();
    op();
    t.stop();
    return t.seconds();
  });
}

point_result& case_state::measure_timed(std::uint64_t bytes, const sample_spec& spec,
                                        const std::function<double()>& op) {
  return measure_value(bytes, spec, [&] { return to_metric(op(), spec); });
}

point_result& case_state::measure_value(std::uint64_t bytes, const sample_spec& spec,
                                        const std::function<double()>& op) {
  stopping_criteria c = m_def.criteria;
  if (spec.point_limit_s > 0) c.timeout = spec.point_limit_s;
  if (m_ctx.point_timeout > 0) c.timeout = std::min(c.timeout, m_ctx.point_timeout);
  point_result p;
  p.bytes = bytes;
  // Alone, an interrupt stops at once; in a group only where all agree (m_agree).
  const auto stop_alone = [this] {
    m_ctx.poll_peers();
    return !m_agree && m_ctx.interrupted();
  };
  for (std::size_t i = 0; i < c.warmup_samples; ++i) {
    if (stop_alone()) throw interrupted();
    op();
    ++p.warmup;
  }
  stopping_rule rule(c);
  stopwatch clock;
  std::optional<stop_reason> reason;
  for (;;) {
    if (stop_alone()) {
      reason = stop_reason::interrupted;
      break;
    }
    const double value = op();
    if (!std::isfinite(value) || value < 0)
      throw std::runtime_error("a sample gave " + std::to_string(value) + ": not a usable value");
    reason = rule.add(value, clock.seconds());
    if (m_agree) {
      m_ctx.poll_peers();
      const sample_vote all = m_agree({reason.has_value(), m_ctx.interrupted()});
      if (all.interrupted)
        reason = stop_reason::interrupted;
      else if (!all.stop)
        reason.reset();
      else if (!reason)
        reason = stop_reason::consensus;
    }
    if (reason) break;
  }
  p.seconds = clock.seconds();
  p.samples = rule.values();
  p.stopped_by = std::string(to_string(*reason));
  if (!p.samples.empty()) {
    p.stats = summarize(p.samples);
    if (p.samples.size() < c.min_samples && reason != stop_reason::interrupted)
      p.extra["min_samples"] = c.min_samples;
    m_result.points.push_back(std::move(p));
    if (m_on_point) m_on_point(m_result, m_result.points.back());
  }
  if (reason == stop_reason::interrupted) throw interrupted();
  return m_result.points.back();
}

point_result& case_state::add_measured_point(point_result p) {
  m_result.points.push_back(std::move(p));
  if (m_on_point) m_on_point(m_result, m_result.points.back());
  return m_result.points.back();
}

}  // namespace gpubench::core

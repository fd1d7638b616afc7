#include "core/stopping.hpp"

#include <algorithm>

#include "core/statistics.hpp"

namespace gpubench::core {

std::string_view to_string(stop_reason r) {
  switch (r) {
    case stop_reason::noise:
      return "noise";
    case stop_reason::timeout:
      return "timeout";
    case stop_reason::max_samples:
      return "max_samples";
    case stop_reason::interrupted:
      return "interrupted";
    case stop_reason::consensus:
      return "consensus";
  }
  return "unknown";
}

std::optional<stop_reason> stopping_rule::add(double value, double elapsed) {
  m_values.push_back(value);
  const std::size_t n = m_values.size();
  if (n >= m_criteria.max_samples) return stop_reason::max_samples;
  if (elapsed >= m_criteria.timeout) return stop_reason::timeout;
  if (n < m_criteria.min_samples || elapsed < m_criteria.min_time) return std::nullopt;
  // The noise estimate sorts the samples: check it on a geometric schedule (every ~12 %
  // more samples), so the rule costs O(log n) per sample between microsecond-scale samples.
  if (n < m_next_check) return std::nullopt;
  m_next_check = n + std::max<std::size_t>(1, n / 8);
  m_noise = median_relative_noise(m_values);
  if (m_noise <= m_criteria.max_noise) return stop_reason::noise;
  return std::nullopt;
}

}  // namespace gpubench::core

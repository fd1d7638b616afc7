#include "benchmarks/network/sample_sizing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gpubench::benchmarks::network {

namespace {

// No sample moves more messages per stream than this, whatever a probe measured: a guard
// against a timer that reads near zero, not a limit any real path reaches in 100 ms.
constexpr double max_messages = 1e10;
constexpr std::uint64_t first_probe_bytes = 1u << 20;
constexpr std::uint64_t first_probe_max_messages = 1024;
// A probe shorter than 1 us is timer noise: counted as 1 us.
constexpr double min_probe_seconds = 1e-6;

std::uint64_t count_for(double seconds, double rate, bool round_up) {
  const double n = std::min(seconds * rate, max_messages);
  return static_cast<std::uint64_t>(round_up ? std::ceil(n) : std::floor(n));
}

}  // namespace

std::uint64_t sample_messages(const sample_target& target, std::uint64_t bytes,
                              double messages_per_second) {
  if (bytes == 0) throw std::invalid_argument("sample_messages: 0-byte messages");
  if (!(messages_per_second > 0) || !std::isfinite(messages_per_second))
    throw std::invalid_argument("sample_messages: measured rate " +
                                std::to_string(messages_per_second) +
                                " messages/s is not a positive number");
  const std::uint64_t by_time = count_for(target.seconds, messages_per_second, true);
  const std::uint64_t cap = count_for(target.max_seconds, messages_per_second, false);
  const std::uint64_t floor_count =
      std::max(target.floor_messages, (target.floor_bytes + bytes - 1) / bytes);
  return std::max({std::uint64_t{1}, by_time, std::min(floor_count, cap)});
}

double bandwidth_point_limit_s(double sample_seconds, std::size_t min_samples, double timeout) {
  if (!std::isfinite(sample_seconds) || sample_seconds < 0)
    throw std::invalid_argument("bandwidth_point_limit_s: a sample of " +
                                std::to_string(sample_seconds) + " s");
  constexpr double spare = 1.5;
  return std::max(timeout, spare * static_cast<double>(min_samples) * sample_seconds);
}

sample_calibration::sample_calibration(const sample_target& target, std::uint64_t bytes)
    : m_target(target),
      m_bytes(std::max<std::uint64_t>(bytes, 1)),
      m_probe(std::clamp<std::uint64_t>((first_probe_bytes + m_bytes - 1) / m_bytes, 1,
                                        first_probe_max_messages)) {}

bool sample_calibration::add(double seconds) {
  if (m_done) throw std::logic_error("sample_calibration: add() after calibration ended");
  if (!std::isfinite(seconds) || seconds < 0)
    throw std::invalid_argument("sample_calibration: a probe took " + std::to_string(seconds) +
                                " s");
  seconds = std::max(seconds, min_probe_seconds);
  ++m_probes;
  m_rate = static_cast<double>(m_probe) / seconds;
  // At least two probes: one stall of a loaded host in the first would otherwise size every
  // sample of the point too small.
  if ((m_probes >= 2 && seconds >= m_target.seconds / 4) || m_probes >= max_probes) {
    m_done = true;
    return true;
  }
  // Half the target at the rate just seen, growing at least 2x (a burst into empty buffers
  // reads fast; the next probe then runs into the steady rate) and at most 64x per probe.
  m_probe = std::clamp(count_for(m_target.seconds / 2, m_rate, true), m_probe * 2, m_probe * 64);
  return false;
}

std::uint64_t sample_calibration::messages() const {
  if (!m_done) throw std::logic_error("sample_calibration: messages() before calibration ended");
  return sample_messages(m_target, m_bytes, m_rate);
}

}  // namespace gpubench::benchmarks::network

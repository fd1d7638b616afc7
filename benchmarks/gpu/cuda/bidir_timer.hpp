// The timer of a bidirectional copy with a stream per direction: the latch's events time each
// direction on its own, the sample is the sum of both directions' bandwidths, and each
// direction's rate is kept for the point.
#pragma once

#include <vector>

#include "benchmarks/gpu/bidir_rates.hpp"
#include "benchmarks/gpu/cuda/latched_timer.hpp"

namespace gpubench::benchmarks::gpu::cuda {

class bidir_timer final : public core::timer {
 public:
  // `latch` has exactly two streams, the first direction's first; it outlives this timer.
  explicit bidir_timer(latched_timer& latch) : m_latch(latch) {}

  // Bytes each direction moves in one sample; starts a new point.
  void set_bytes(double first, double second) {
    m_first_bytes = first;
    m_second_bytes = second;
    m_samples.clear();
  }
  const std::vector<bidir_rates>& samples() const { return m_samples; }

  void start() override { m_latch.start(); }
  void stop() override { m_latch.stop(); }
  double seconds() override {
    m_latch.seconds();  // synchronises, fails on a latch timeout
    const std::vector<double> t = m_latch.stream_seconds();
    m_samples.push_back(split_rates(m_first_bytes, t.at(0), m_second_bytes, t.at(1)));
    return m_samples.back().effective_seconds;
  }

 private:
  latched_timer& m_latch;
  double m_first_bytes = 0;
  double m_second_bytes = 0;
  std::vector<bidir_rates> m_samples;
};

}  // namespace gpubench::benchmarks::gpu::cuda

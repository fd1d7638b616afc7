// The CUDA-event timer of the GPU family, plugged into core's `timer`: copies are queued
// behind a spin kernel that waits on a host flag, so launch and enqueue time stay out of
// the measurement (nvbandwidth's method).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "benchmarks/gpu/cuda/resources.hpp"
#include "core/timer.hpp"

namespace gpubench::benchmarks::gpu::cuda {

// start(): spin kernel on every stream, the untimed warm-up copies, start events aligned
// on stream 0's; the caller then enqueues the timed work; stop(): each stream's end event and
// right behind it that stream's trailer, then a join stream of its own waits for every end
// event and records the total end, then the host releases the flag; seconds(): synchronises
// every stream, fails if a spin kernel timed out, and returns stream 0's start to the total
// end.
class latched_timer final : public core::timer {
 public:
  // The streams belong to the caller and outlive the timer. Throws skip_case under
  // CUDA_LAUNCH_BLOCKING, where no latch can work.
  explicit latched_timer(std::vector<const stream*> streams);
  ~latched_timer() override;
  latched_timer(const latched_timer&) = delete;
  latched_timer& operator=(const latched_timer&) = delete;

  // Untimed work queued after the spin kernels and before the start events.
  void set_warmup(std::function<void()> warmup) { m_warmup = std::move(warmup); }
  // Untimed work queued after the end events and before the release: a bidirectional copy
  // keeps each direction busy past its end, so neither direction's interval has a tail in
  // which it runs alone. Each stream's part of it follows that stream's own end event and
  // nothing else (no stream waits for another's end before its trailer; the total end is
  // joined on a stream of its own), as nvbandwidth keeps its interfering copy running.
  void set_trailer(std::function<void()> trailer) { m_trailer = std::move(trailer); }

  void start() override;
  void stop() override;
  double seconds() override;
  // After seconds(): each stream's own start to its own end, in the constructor's order.
  std::vector<double> stream_seconds() const;

 private:
  struct slot {
    const stream* s;
    std::unique_ptr<event> start;
    std::unique_ptr<event> end;
    long long timeout_clocks;
  };
  void release_and_drain() noexcept;

  std::vector<slot> m_slots;
  std::unique_ptr<stream> m_join;  // waits for every end event and records the total end
  std::unique_ptr<event> m_total_end;
  std::unique_ptr<latch_flag> m_flag;  // on the first stream's device
  std::function<void()> m_warmup;
  std::function<void()> m_trailer;
  bool m_armed = false;  // spin kernels queued and not released yet
};

// Spin kernels give up after this long, so a host that never releases the flag (a crash
// between start and stop) cannot hang the device; a sample that hits it is an error.
inline constexpr long long spin_timeout_ms = 10'000;

}  // namespace gpubench::benchmarks::gpu::cuda

#include "benchmarks/gpu/cuda/latched_timer.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/launch_checks.hpp"
#include "core/errors.hpp"

namespace gpubench::benchmarks::gpu::cuda {

latched_timer::latched_timer(std::vector<const stream*> streams) {
  if (streams.empty()) throw std::logic_error("latched_timer needs at least one stream");
  if (const auto why = latch_refusal(std::getenv("CUDA_LAUNCH_BLOCKING")))
    throw core::skip_case(*why);
  for (const stream* s : streams) {
    int clock_khz = 0;
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, s->device()),
          "reading the SM clock rate of GPU " + std::to_string(s->device()));
    m_slots.push_back({s, std::make_unique<event>(s->device()),
                       std::make_unique<event>(s->device()),
                       static_cast<long long>(clock_khz) * spin_timeout_ms});
  }
  m_join = std::make_unique<stream>(m_slots.front().s->device());
  m_total_end = std::make_unique<event>(m_slots.front().s->device());
  m_flag = std::make_unique<latch_flag>(m_slots.front().s->device());
}

latched_timer::~latched_timer() {
  release_and_drain();
}

void latched_timer::release_and_drain() noexcept {
  if (!m_armed) return;
  m_flag->set(1);
  for (auto& sl : m_slots)
    cudaStreamSynchronize(sl.s->get());
  cudaStreamSynchronize(m_join->get());
  m_armed = false;
}

void latched_timer::start() {
  // The previous sample's streams were synchronised in seconds(): resetting is safe.
  m_flag->set(0);
  m_flag->clear_timeout();
  m_armed = true;
  for (auto& sl : m_slots) {
    select_device(sl.s->device());
    launch_spin(sl.s->get(), m_flag->flag_device(), m_flag->timed_out_device(), sl.timeout_clocks);
  }
  if (m_warmup) m_warmup();
  const slot& first = m_slots.front();
  check(cudaEventRecord(first.start->get(), first.s->get()), "recording the start event");
  for (std::size_t i = 1; i < m_slots.size(); ++i) {
    // Every stream starts its timed copies when stream 0 does, not when it was released.
    check(cudaStreamWaitEvent(m_slots[i].s->get(), first.start->get(), 0),
          "aligning the start of stream " + std::to_string(i));
    check(cudaEventRecord(m_slots[i].start->get(), m_slots[i].s->get()), "recording a start event");
  }
}

void latched_timer::stop() {
  for (auto& sl : m_slots)
    check(cudaEventRecord(sl.end->get(), sl.s->get()), "recording an end event");
  // Each stream's trailer queues behind its own end event only: the faster direction goes on
  // copying while the slower one finishes, instead of waiting for it.
  if (m_trailer) m_trailer();
  select_device(m_join->device());
  for (std::size_t i = 0; i < m_slots.size(); ++i)
    check(cudaStreamWaitEvent(m_join->get(), m_slots[i].end->get(), 0),
          "joining stream " + std::to_string(i) + " into the total end");
  check(cudaEventRecord(m_total_end->get(), m_join->get()), "recording the total end event");
  // Everything is queued: let the spin kernels go.
  m_flag->set(1);
}

double latched_timer::seconds() {
  for (auto& sl : m_slots)
    sl.s->synchronize("waiting for the timed copies");
  m_join->synchronize("waiting for the total end");
  m_armed = false;
  if (m_flag->timed_out())
    throw std::runtime_error(
        "the spin latch timed out after " + std::to_string(spin_timeout_ms / 1000) +
        " s before the host released it: the sample would include enqueue time and is discarded");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, m_slots.front().start->get(), m_total_end->get()),
        "reading the elapsed time between the CUDA events");
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace gpubench::benchmarks::gpu::cuda

namespace gpubench::benchmarks::gpu::cuda {

std::vector<double> latched_timer::stream_seconds() const {
  std::vector<double> out;
  for (const auto& sl : m_slots) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, sl.start->get(), sl.end->get()),
          "reading the elapsed time of one stream's copies");
    out.push_back(static_cast<double>(ms) * 1e-3);
  }
  return out;
}

}  // namespace gpubench::benchmarks::gpu::cuda

// Timers the runner measures samples with: a steady clock here, CUDA events in the GPU family.
#pragma once

#include <chrono>

namespace gpubench::core {

class timer {
 public:
  virtual ~timer() = default;
  virtual void start() = 0;
  virtual void stop() = 0;
  // Seconds between the last start() and stop(); may wait for the device to finish.
  virtual double seconds() = 0;
};

class steady_timer final : public timer {
 public:
  void start() override { m_start = clock::now(); }
  void stop() override { m_stop = clock::now(); }
  double seconds() override { return std::chrono::duration<double>(m_stop - m_start).count(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point m_start{}, m_stop{};
};

// Seconds on the steady clock since construction: for timeouts and elapsed budgets.
class stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }

 private:
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

}  // namespace gpubench::core

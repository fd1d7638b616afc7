#include "transports/mpi/watchdog.hpp"

#include <fmt/format.h>

namespace gpubench::transports::mpi {

watchdog::watchdog(std::chrono::milliseconds limit,
                   std::function<void(const std::string&)> on_stall)
    : m_limit(limit),
      m_on_stall(std::move(on_stall)),
      m_last(std::chrono::steady_clock::now()),
      m_what("starting") {
  m_thread = std::thread([this] { loop(); });
}

watchdog::~watchdog() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_cv.notify_all();
  m_thread.join();
}

void watchdog::beat(std::string what) {
  std::lock_guard lock(m_mutex);
  m_last = std::chrono::steady_clock::now();
  m_what = std::move(what);
}

bool watchdog::fired() const {
  std::lock_guard lock(m_mutex);
  return m_fired;
}

void watchdog::loop() {
  std::unique_lock lock(m_mutex);
  while (!m_stop) {
    const auto deadline = m_last + m_limit;
    if (std::chrono::steady_clock::now() >= deadline) {
      m_fired = true;
      const std::string message = fmt::format("no progress for {:.0f} s while {}",
                                              static_cast<double>(m_limit.count()) / 1000, m_what);
      lock.unlock();
      m_on_stall(message);
      return;
    }
    m_cv.wait_until(lock, deadline, [this] { return m_stop; });
  }
}

}  // namespace gpubench::transports::mpi

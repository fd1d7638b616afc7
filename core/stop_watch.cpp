#include "core/stop_watch.hpp"

namespace gpubench::core {

namespace {
// How often the flag is looked at: a signal handler may only set it (no notify from there).
constexpr std::chrono::milliseconds look_every{20};
}  // namespace

stop_watch::stop_watch(const std::atomic<bool>& flag, std::chrono::milliseconds grace,
                       std::function<void()> on_raised, std::function<void()> on_overdue)
    : m_flag(flag),
      m_grace(grace),
      m_on_raised(std::move(on_raised)),
      m_on_overdue(std::move(on_overdue)) {
  m_thread = std::thread([this] { loop(); });
}

stop_watch::~stop_watch() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_cv.notify_all();
  m_thread.join();
}

void stop_watch::loop() {
  std::unique_lock lock(m_mutex);
  while (!m_flag.load()) {
    if (m_cv.wait_for(lock, look_every, [this] { return m_stop; })) return;
  }
  lock.unlock();
  if (m_on_raised) m_on_raised();
  lock.lock();
  if (m_cv.wait_for(lock, m_grace, [this] { return m_stop; })) return;
  lock.unlock();
  if (m_on_overdue) m_on_overdue();
}

}  // namespace gpubench::core

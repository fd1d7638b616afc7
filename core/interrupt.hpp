// Turns SIGINT and SIGTERM into a flag the runner polls, so an interrupted run stops between
// samples and keeps what it measured. A second signal terminates at once.
#pragma once

#include <atomic>
#include <csignal>

namespace gpubench::core {

// Installs the handlers for its lifetime (one at a time: POSIX signal handlers are
// process-wide, the only process-wide state in gpubench) and restores the previous ones.
class interrupt_guard {
 public:
  interrupt_guard();
  ~interrupt_guard();
  interrupt_guard(const interrupt_guard&) = delete;
  interrupt_guard& operator=(const interrupt_guard&) = delete;

  const std::atomic<bool>& flag() const { return m_flag; }
  // The signal that arrived, or 0.
  int signal() const { return m_signal.load(); }

 private:
  static void handle(int sig);
  std::atomic<bool> m_flag{false};
  std::atomic<int> m_signal{0};
  struct sigaction m_old_int {};
  struct sigaction m_old_term {};
};

}  // namespace gpubench::core

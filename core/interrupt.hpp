// Turns SIGINT and SIGTERM into a flag the runner polls, so an interrupted run stops between
// samples and keeps what it measured. A second signal terminates at once. Under an MPI launch
// the flag is also raised when another rank was interrupted (core/launch_stop.hpp).
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

  // Set on a signal, or when another process of the launch stopped (raise_from_peer).
  const std::atomic<bool>& flag() const { return m_flag; }
  bool stopped() const { return m_flag.load(); }
  // The signal that arrived, or 0 (also when only a peer stopped this process).
  int signal() const { return m_signal.load(); }
  // Another rank of the launch was interrupted: this process stops as on a signal, and a
  // signal that arrives later is still its first (it does not kill at once).
  void raise_from_peer() { m_flag.store(true); }

 private:
  static void handle(int sig);
  std::atomic<bool> m_flag{false};
  std::atomic<int> m_signal{0};
  struct sigaction m_old_int {};
  struct sigaction m_old_term {};
};

}  // namespace gpubench::core

#include "core/interrupt.hpp"

#include <stdexcept>

namespace gpubench::core {

namespace {
// The handler needs to find the guard; lock-free atomics are async-signal-safe.
std::atomic<interrupt_guard*>& active_guard() {
  static std::atomic<interrupt_guard*> guard{nullptr};
  return guard;
}
}  // namespace

interrupt_guard::interrupt_guard() {
  interrupt_guard* expected = nullptr;
  if (!active_guard().compare_exchange_strong(expected, this))
    throw std::logic_error("only one interrupt_guard may be active");
  struct sigaction sa {};
  sa.sa_handler = &interrupt_guard::handle;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR and see the flag
  sigaction(SIGINT, &sa, &m_old_int);
  sigaction(SIGTERM, &sa, &m_old_term);
}

interrupt_guard::~interrupt_guard() {
  sigaction(SIGINT, &m_old_int, nullptr);
  sigaction(SIGTERM, &m_old_term, nullptr);
  active_guard().store(nullptr);
}

void interrupt_guard::handle(int sig) {
  interrupt_guard* g = active_guard().load();
  if (g == nullptr || g->m_signal.load() != 0) {
    // Second signal: the default action, at once.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g->m_signal.store(sig);
  g->m_flag.store(true);
}

}  // namespace gpubench::core

// Makes sure an interrupted run stops in time. The main thread stops at the next point where it
// looks at the interrupt flag, but it may be inside a call that cannot be interrupted (a
// collective whose peers went on, a long sample): a thread watches the flag instead. When the
// flag is raised it calls `on_raised` at once (rank 0 writes its partial file: under mpirun a
// SIGKILL follows the SIGTERM within a second); when `grace` has passed since and the watch
// still lives (the run did not stop by itself), `on_overdue`, which ends the process.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gpubench::core {

class stop_watch {
 public:
  stop_watch(const std::atomic<bool>& flag, std::chrono::milliseconds grace,
             std::function<void()> on_raised, std::function<void()> on_overdue);
  ~stop_watch();
  stop_watch(const stop_watch&) = delete;
  stop_watch& operator=(const stop_watch&) = delete;

 private:
  void loop();

  const std::atomic<bool>& m_flag;
  std::chrono::milliseconds m_grace;
  std::function<void()> m_on_raised;
  std::function<void()> m_on_overdue;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_stop = false;
  std::thread m_thread;
};

}  // namespace gpubench::core

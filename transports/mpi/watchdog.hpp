// Fails a rank fast when the launch stops making progress (a peer rank died or hangs): MPI
// and NCCL calls have no timeout of their own, so a thread watches a heartbeat.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gpubench::transports::mpi {

class watchdog {
 public:
  // Calls `on_stall(message)` once when no beat() came for `limit`; the callback ends the
  // process (MPI_Abort), since the blocked call cannot be interrupted.
  watchdog(std::chrono::milliseconds limit, std::function<void(const std::string&)> on_stall);
  ~watchdog();
  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;

  // Progress: a sample finished. `what` names the work now under way, for the message.
  void beat(std::string what);
  bool fired() const;

 private:
  void loop();

  std::chrono::milliseconds m_limit;
  std::function<void(const std::string&)> m_on_stall;
  mutable std::mutex m_mutex;
  std::condition_variable m_cv;
  std::chrono::steady_clock::time_point m_last;
  std::string m_what;
  bool m_stop = false;
  bool m_fired = false;
  std::thread m_thread;
};

}  // namespace gpubench::transports::mpi

// Worker threads that run one job per TCP stream at once, each counting the CPU time its jobs
// used, so N parallel streams are driven and accounted for like one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "transports/transport.hpp"

namespace gpubench::transports::tcp {

class stream_team {
 public:
  explicit stream_team(std::size_t workers);
  ~stream_team();
  stream_team(const stream_team&) = delete;
  stream_team& operator=(const stream_team&) = delete;

  std::size_t size() const { return m_threads.size(); }
  // Runs job(i) on worker i, for every worker; returns at once. The previous jobs must be over.
  void start(std::function<void(std::size_t)> job);
  // Waits up to `timeout` for the started jobs; true when all are over. Rethrows the first
  // exception a job threw.
  bool wait_for(std::chrono::milliseconds timeout);
  // CPU time the workers spent in jobs since the last call.
  cpu_usage take_cpu();

 private:
  void work(std::size_t index);

  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::condition_variable m_done;
  std::function<void(std::size_t)> m_job;
  std::size_t m_generation = 0;
  std::size_t m_running = 0;
  bool m_quit = false;
  std::exception_ptr m_error;
  cpu_usage m_cpu;
  std::vector<std::thread> m_threads;
};

}  // namespace gpubench::transports::tcp

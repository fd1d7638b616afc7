#include "transports/tcp/stream_team.hpp"

namespace gpubench::transports::tcp {

stream_team::stream_team(std::size_t workers) {
  m_threads.reserve(workers);
  for (std::size_t i = 0; i < workers; ++i)
    m_threads.emplace_back([this, i] { work(i); });
}

stream_team::~stream_team() {
  {
    std::lock_guard lock(m_mutex);
    m_quit = true;
  }
  m_wake.notify_all();
  for (auto& t : m_threads)
    t.join();
}

void stream_team::start(std::function<void(std::size_t)> job) {
  {
    std::lock_guard lock(m_mutex);
    m_job = std::move(job);
    m_error = nullptr;
    m_running = m_threads.size();
    ++m_generation;
  }
  m_wake.notify_all();
}

bool stream_team::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock lock(m_mutex);
  if (!m_done.wait_for(lock, timeout, [this] { return m_running == 0; })) return false;
  if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
  return true;
}

cpu_usage stream_team::take_cpu() {
  std::lock_guard lock(m_mutex);
  return std::exchange(m_cpu, cpu_usage{});
}

void stream_team::work(std::size_t index) {
  std::size_t seen = 0;
  for (;;) {
    std::function<void(std::size_t)> job;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [&] { return m_quit || m_generation != seen; });
      if (m_quit) return;
      seen = m_generation;
      job = m_job;
    }
    const cpu_usage before = cpu_usage::this_thread();
    std::exception_ptr error;
    try {
      job(index);
    } catch (...) {
      error = std::current_exception();
    }
    const cpu_usage used = cpu_usage::this_thread() - before;
    {
      std::lock_guard lock(m_mutex);
      m_cpu += used;
      if (error && !m_error) m_error = error;
      if (--m_running == 0) m_done.notify_all();
    }
  }
}

}  // namespace gpubench::transports::tcp

#include "stream_worker.hpp"

#include "runtime.hpp"

namespace gpubench::tests::standin {

void completion::finish(stream_counts counts) {
  {
    const std::lock_guard lock(m_mutex);
    m_done = true;
    m_at = std::chrono::steady_clock::now();
    m_counts = counts;
  }
  m_cv.notify_all();
}

void completion::wait() {
  std::unique_lock lock(m_mutex);
  m_cv.wait(lock, [this] { return m_done; });
}

bool completion::done() const {
  const std::lock_guard lock(m_mutex);
  return m_done;
}

std::chrono::steady_clock::time_point completion::at() const {
  const std::lock_guard lock(m_mutex);
  return m_at;
}

stream_counts completion::counts() const {
  const std::lock_guard lock(m_mutex);
  return m_counts;
}

stream_worker::stream_worker(runtime& rt, int device, bool legacy)
    : m_rt(rt), m_device(device), m_legacy(legacy), m_thread([this] { loop(); }) {}

stream_worker::~stream_worker() {
  {
    const std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_cv.notify_all();
  m_thread.join();
}

void stream_worker::push(stream_op op) {
  {
    const std::lock_guard lock(m_mutex);
    m_queue.push_back(std::move(op));
    ++m_pushed;
  }
  m_cv.notify_all();
}

void stream_worker::synchronize() {
  std::unique_lock lock(m_mutex);
  const std::uint64_t target = m_pushed;
  ++m_sync_waiters;
  m_cv.notify_all();  // a held copy lands now
  m_cv.wait(lock, [&] { return m_done >= target; });
  --m_sync_waiters;
}

void stream_worker::hold_until_synchronized(std::chrono::microseconds longest) {
  std::unique_lock lock(m_mutex);
  m_cv.wait_for(lock, longest, [this] { return m_sync_waiters > 0 || m_stop; });
}

bool stream_worker::idle() const {
  const std::lock_guard lock(m_mutex);
  return m_done == m_pushed;
}

stream_counts stream_worker::counts() const {
  const std::lock_guard lock(m_mutex);
  return m_counts;
}

void stream_worker::loop() {
  for (;;) {
    stream_op op;
    {
      std::unique_lock lock(m_mutex);
      m_cv.wait(lock, [this] { return m_stop || !m_queue.empty(); });
      if (m_queue.empty()) return;  // stopping, and everything ran
      op = std::move(m_queue.front());
      m_queue.pop_front();
    }
    // After a fault the device's context is lost, as on a GPU: its work no longer runs, but
    // markers (events) still complete so nothing waits forever.
    if (op.kind == op_kind::marker || !m_rt.device_failed(m_device)) {
      if (op.kind != op_kind::marker) m_rt.delay_operation(m_device);
      try {
        op.run();
      } catch (const kernel_fault& f) {
        m_rt.record_fault(m_device, f);
      }
    }
    {
      const std::lock_guard lock(m_mutex);
      if (op.kind == op_kind::copy) {
        ++m_counts.copies;
        m_counts.copy_bytes += op.bytes;
      }
      if (op.kind == op_kind::kernel) ++m_counts.kernels;
      ++m_done;
    }
    m_cv.notify_all();
  }
}

}  // namespace gpubench::tests::standin

// A stream of the stand-in: its own worker thread that runs queued operations in order, so
// work is asynchronous for real (a copy queued behind a spin kernel waits for the host's
// flag), and the completion records that events and synchronisation wait on.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace gpubench::tests::standin {

// What a stream had finished when it reached a point: tests compare two events' counts to
// see which operations ran between them.
struct stream_counts {
  std::uint64_t copies = 0;
  std::uint64_t copy_bytes = 0;
  std::uint64_t kernels = 0;
};

// An event reached by its stream: which stream, what it had done by then, and what every
// stream of the machine (itself included, the legacy ones left out) had done at that moment.
struct reached_event {
  const void* stream = nullptr;
  int device = 0;
  stream_counts counts;
  std::map<const void*, stream_counts> every_stream;
};

// One recording of an event: done when the stream reached it.
class completion {
 public:
  void finish(stream_counts counts);
  void wait();
  bool done() const;
  std::chrono::steady_clock::time_point at() const;
  stream_counts counts() const;

 private:
  mutable std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  std::chrono::steady_clock::time_point m_at;
  stream_counts m_counts;
};

enum class op_kind { copy, kernel, memset, marker };

struct stream_op {
  op_kind kind = op_kind::marker;
  std::uint64_t bytes = 0;
  // Runs on the worker; throws kernel_fault (runtime.hpp) when the device would fault.
  std::function<void()> run;
};

class runtime;

class stream_worker {
 public:
  stream_worker(runtime& rt, int device, bool legacy);
  // Runs what is queued to the end, then stops the thread (cudaStreamDestroy returns at once
  // on a GPU, but the work still runs: here the caller waits for it).
  ~stream_worker();
  stream_worker(const stream_worker&) = delete;
  stream_worker& operator=(const stream_worker&) = delete;

  int device() const { return m_device; }
  bool legacy() const { return m_legacy; }
  void push(stream_op op);
  // Until every operation queued so far has run.
  void synchronize();
  // Called by a running operation: returns once the host synchronises with this stream (or
  // its device), or after `longest`. Copies from pageable memory land this late: at the
  // latest moment CUDA allows, so code that reads them without synchronising fails always.
  void hold_until_synchronized(std::chrono::microseconds longest);
  bool idle() const;
  stream_counts counts() const;

 private:
  void loop();

  runtime& m_rt;
  int m_device;
  bool m_legacy;
  mutable std::mutex m_mutex;
  std::condition_variable m_cv;
  std::deque<stream_op> m_queue;
  std::uint64_t m_pushed = 0;
  std::uint64_t m_done = 0;
  int m_sync_waiters = 0;  // host threads in synchronize()
  bool m_stop = false;
  stream_counts m_counts;
  std::thread m_thread;  // last: started once everything above exists
};

}  // namespace gpubench::tests::standin

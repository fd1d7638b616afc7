// The state of the stand-in CUDA runtime: the devices of the machine a test chose, their
// peer access, contexts and sticky errors, the memory table, streams and events. The C API
// (api_*.cpp) has no handle to pass it, so one runtime is installed for the process while a
// test's `machine` lives (installed_runtime()); per-thread state (current device, last
// error) is thread-local, as CUDA's is.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cuda_runtime_api.h"
#include "machine_config.hpp"
#include "memory_table.hpp"
#include "stream_worker.hpp"

struct CUstream_st {
  std::unique_ptr<gpubench::tests::standin::stream_worker> worker;
};

struct CUevent_st {
  int device = 0;
  bool timing = true;
  std::shared_ptr<gpubench::tests::standin::completion> last;  // the latest recording
};

namespace gpubench::tests::standin {

// Thrown by device code (a bad access, __trap): ends the kernel, the device's context is
// lost (every later call on it returns `error`, as CUDA's sticky errors do).
struct kernel_fault {
  cudaError_t error = cudaErrorIllegalAddress;
  std::string message;
};

class runtime {
 public:
  explicit runtime(machine_config config);
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  const machine_config& config() const { return m_config; }
  bool valid_device(int d) const { return d >= 0 && d < m_config.devices; }

  // The calling thread's current device (0 until it sets one, as CUDA).
  int current_device() const;
  void set_current_device(int d);
  // Records a failed call as the thread's last error, says why on stderr unless `quiet`
  // (expected answers such as cudaErrorPeerAccessAlreadyEnabled), and returns `e`.
  cudaError_t fail(cudaError_t e, const std::string& why, bool quiet = false);
  cudaError_t take_last_error();
  cudaError_t peek_last_error() const;

  // A context exists on `d` once a call made it current or used it. Under EXCLUSIVE_PROCESS
  // it is refused (cudaErrorDevicesUnavailable, recorded as the thread's error) while another
  // process of the node holds one on the same physical GPU.
  cudaError_t open_context(int d);
  std::set<int> contexts() const;
  // cudaDeviceReset: the device's streams, events and memory go, its context is released.
  void reset_device(int d);

  // Sticky errors: a device whose kernel faulted.
  bool device_failed(int d) const;
  cudaError_t device_error(int d) const;
  void record_fault(int device, const kernel_fault& f);
  std::vector<std::string> faults() const;
  void delay_operation(int device) const;

  memory_table& memory() { return m_memory; }
  const memory_table& memory() const { return m_memory; }
  bool peer_enabled(int from, int to) const;
  void set_peer_enabled(int from, int to, bool on);
  // Why a kernel on `device` may not touch [p, p + n); empty when it may.
  std::string access_problem(int device, std::uintptr_t p, std::size_t n) const;

  CUstream_st* create_stream(int device);
  bool destroy_stream(cudaStream_t s);
  // The worker of `s` (nullptr: the legacy stream of the current device); nullptr when `s`
  // is not a live stream.
  stream_worker* worker_of(cudaStream_t s);
  void synchronize_device(int d);
  bool device_busy(int d) const;
  CUevent_st* create_event(int device, bool timing);
  bool destroy_event(cudaEvent_t e);
  bool valid_event(cudaEvent_t e) const;
  std::mutex& event_mutex() { return m_event_mutex; }

  // Events as their streams reach them, in that order (tests read which work ran between).
  void event_reached(const void* stream, int device, stream_counts counts);
  std::vector<reached_event> reached_events() const;
  void clear_reached_events();

  bool kernel_loaded(int device, const void* kernel) const;
  void load_kernel(int device, const void* kernel);

  // What a test left behind: memory, streams, events, peer access still enabled.
  std::vector<std::string> leaks() const;
  std::uint64_t id() const { return m_id; }

 private:
  std::vector<stream_worker*> workers_of(int device) const;

  machine_config m_config;
  std::uint64_t m_id;
  memory_table m_memory;
  std::vector<std::atomic<bool>> m_peer;  // [from * devices + to]
  std::vector<std::atomic<int>> m_sticky;
  mutable std::mutex m_mutex;  // contexts, faults, kernels, streams
  std::set<int> m_contexts;    // every context opened (tests ask)
  std::map<int, int> m_held;   // device -> lock file held (EXCLUSIVE_PROCESS)
  std::vector<std::string> m_faults;
  std::set<std::pair<int, const void*>> m_kernels;
  std::map<CUstream_st*, std::unique_ptr<CUstream_st>> m_streams;
  std::vector<std::unique_ptr<stream_worker>> m_legacy;  // per device, made on first use
  mutable std::mutex m_event_mutex;
  std::map<CUevent_st*, std::unique_ptr<CUevent_st>> m_events;
  std::vector<reached_event> m_reached;
};

// The runtime of the machine a test installed, or nullptr (then every call answers as a
// host without a GPU would).
runtime* installed_runtime();
void install_runtime(runtime* rt);  // nullptr uninstalls

// The device whose kernel the calling thread is running (-1 on the host).
int executing_device();
void set_executing_device(int d);

}  // namespace gpubench::tests::standin

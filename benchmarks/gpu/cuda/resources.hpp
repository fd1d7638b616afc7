// RAII owners of the CUDA resources the jobs use: device memory, streams, events, pinned or
// pageable host memory bound to a NUMA node, and the spin latch's flag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <cuda_runtime_api.h>

struct hwloc_topology;
struct hwloc_bitmap_s;

namespace gpubench::benchmarks::gpu::cuda {

class device_memory {
 public:
  device_memory(int device, std::size_t bytes);
  ~device_memory();
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
  void* get() const { return m_ptr; }
  int device() const { return m_device; }
  std::size_t size() const { return m_size; }

 private:
  int m_device;
  void* m_ptr = nullptr;
  std::size_t m_size;
};

// A non-blocking stream: never serialised against the legacy default stream.
class stream {
 public:
  explicit stream(int device);
  ~stream();
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  cudaStream_t get() const { return m_stream; }
  int device() const { return m_device; }
  void synchronize(const std::string& what) const;

 private:
  int m_device;
  cudaStream_t m_stream = nullptr;
};

// A timing event created on its stream's device.
class event {
 public:
  explicit event(int device);
  ~event();
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  cudaEvent_t get() const { return m_event; }

 private:
  cudaEvent_t m_event = nullptr;
};

// The machine's topology for binding host memory (hwloc), loaded once per job.
class host_topology {
 public:
  host_topology();
  ~host_topology();
  host_topology(const host_topology&) = delete;
  host_topology& operator=(const host_topology&) = delete;
  hwloc_topology* get() const { return m_topo; }

 private:
  hwloc_topology* m_topo = nullptr;
};

// The calling thread on the CPUs of one NUMA node for the scope's lifetime (nothing with one
// node or none requested): a pageable copy is done by this thread's CPU, and a copy from a
// far node's CPU would cross the socket link whatever node the memory is on.
class thread_on_node {
 public:
  thread_on_node(const host_topology& topo, std::optional<unsigned> node);
  ~thread_on_node();
  thread_on_node(const thread_on_node&) = delete;
  thread_on_node& operator=(const thread_on_node&) = delete;

 private:
  const host_topology& m_topo;
  hwloc_bitmap_s* m_previous = nullptr;  // the binding to restore
};

// Host memory on one NUMA node (or the default policy), pages touched so they are placed
// now, and registered with CUDA as portable, mapped pinned memory when `pinned`. Freed with
// cudaHostUnregister then hwloc_free: cudaFreeHost would be wrong for registered memory.
// Registered and unregistered with `device` current (the job's first GPU): CUDA does it in
// the current device's context, and without a guard that is GPU 0's whatever GPU the job
// uses, so a broken or exclusively held GPU 0 would fail every GPU's cases.
class host_memory_buffer {
 public:
  host_memory_buffer(const host_topology& topo, std::size_t bytes, std::optional<unsigned> node,
                     bool pinned, int device);
  ~host_memory_buffer();
  host_memory_buffer(const host_memory_buffer&) = delete;
  host_memory_buffer& operator=(const host_memory_buffer&) = delete;
  void* get() const { return m_ptr; }
  std::size_t size() const { return m_size; }
  bool pinned() const { return m_pinned; }
  // The pointer a kernel on the current device uses (pinned memory only).
  void* device_pointer() const;
  // The node the first page really sits on, as the kernel reports it; unset if unknown.
  std::optional<unsigned> placed_node() const { return m_placed; }

 private:
  const host_topology& m_topo;
  void* m_ptr = nullptr;
  std::size_t m_size;
  bool m_pinned;
  int m_device;
  bool m_bound = false;
  std::optional<unsigned> m_placed;
};

// The spin latch's flag and timeout marker: pinned, portable (every GPU's context reads
// it) and mapped; the host writes through a volatile pointer. Allocated and freed with
// `device` current (the job's first GPU), for the reason host_memory_buffer gives.
class latch_flag {
 public:
  explicit latch_flag(int device);
  ~latch_flag();
  latch_flag(const latch_flag&) = delete;
  latch_flag& operator=(const latch_flag&) = delete;
  void set(int v) { m_words[0] = v; }
  bool timed_out() const { return m_words[1] != 0; }
  void clear_timeout() { m_words[1] = 0; }
  const volatile int* flag_device() const;
  int* timed_out_device() const;

 private:
  int m_device;
  volatile int* m_words = nullptr;  // [0] the flag, [1] set by a spin kernel that timed out
};

}  // namespace gpubench::benchmarks::gpu::cuda

// A host buffer, optionally bound to one NUMA node, with its pages touched: RAII over hwloc.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

struct hwloc_topology;

namespace gpubench::benchmarks::memory {

// The machine's NUMA nodes and their CPUs, shared by the buffers and threads bound to them.
class numa_topology {
 public:
  numa_topology();
  ~numa_topology();
  numa_topology(const numa_topology&) = delete;
  numa_topology& operator=(const numa_topology&) = delete;

  std::vector<unsigned> nodes() const;  // OS indexes of the NUMA nodes
  unsigned cores() const;               // physical cores (processing units if unknown)
  // Binds the calling thread to the CPUs of `node`; false when the OS refused.
  bool bind_thread_to(unsigned node) const;
  hwloc_topology* get() const { return m_topo; }

 private:
  hwloc_topology* m_topo = nullptr;
};

class host_buffer {
 public:
  // Allocates `bytes` on `node` (or by the default policy), and writes every page.
  host_buffer(const numa_topology& topo, std::size_t bytes, std::optional<unsigned> node);
  ~host_buffer();
  host_buffer(const host_buffer&) = delete;
  host_buffer& operator=(const host_buffer&) = delete;

  std::byte* data() const { return m_data; }
  std::size_t size() const { return m_size; }

 private:
  const numa_topology& m_topo;
  std::byte* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace gpubench::benchmarks::memory

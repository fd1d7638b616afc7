#include "benchmarks/memory/numa_buffer.hpp"

#include <hwloc.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace gpubench::benchmarks::memory {

numa_topology::numa_topology() {
  if (hwloc_topology_init(&m_topo) != 0) throw std::runtime_error("hwloc: cannot initialise");
  if (hwloc_topology_load(m_topo) != 0) {
    hwloc_topology_destroy(m_topo);
    throw std::runtime_error("hwloc: cannot load the topology");
  }
}

numa_topology::~numa_topology() {
  hwloc_topology_destroy(m_topo);
}

std::vector<unsigned> numa_topology::nodes() const {
  std::vector<unsigned> out;
  const int n = hwloc_get_nbobjs_by_type(m_topo, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < n; ++i)
    out.push_back(
        hwloc_get_obj_by_type(m_topo, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i))->os_index);
  return out;
}

unsigned numa_topology::cores() const {
  int n = hwloc_get_nbobjs_by_type(m_topo, HWLOC_OBJ_CORE);
  if (n <= 0) n = hwloc_get_nbobjs_by_type(m_topo, HWLOC_OBJ_PU);
  return n > 0 ? static_cast<unsigned>(n) : 1U;
}

bool numa_topology::bind_thread_to(unsigned node) const {
  hwloc_obj_t obj = hwloc_get_numanode_obj_by_os_index(m_topo, node);
  if (obj == nullptr) return false;
  return hwloc_set_cpubind(m_topo, obj->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

host_buffer::host_buffer(const numa_topology& topo, std::size_t bytes, std::optional<unsigned> node)
    : m_topo(topo), m_size(bytes) {
  if (node) {
    hwloc_obj_t obj = hwloc_get_numanode_obj_by_os_index(topo.get(), *node);
    if (obj == nullptr) throw std::runtime_error("no NUMA node " + std::to_string(*node));
    m_data = static_cast<std::byte*>(
        hwloc_alloc_membind(topo.get(), bytes, obj->nodeset, HWLOC_MEMBIND_BIND,
                            HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT));
  } else {
    m_data = static_cast<std::byte*>(hwloc_alloc(topo.get(), bytes));
  }
  if (m_data == nullptr)
    throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes" +
                             (node ? " on NUMA node " + std::to_string(*node) : std::string()));
  // Touch every page so first-touch faults stay out of the timed samples.
  std::memset(m_data, 0x5a, bytes);
}

host_buffer::~host_buffer() {
  hwloc_free(m_topo.get(), m_data, m_size);
}

}  // namespace gpubench::benchmarks::memory

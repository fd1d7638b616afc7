#include "benchmarks/gpu/cuda/resources.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

#include <hwloc.h>
#include <unistd.h>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/launch_checks.hpp"
#include "core/units.hpp"

namespace gpubench::benchmarks::gpu::cuda {

device_memory::device_memory(int device, std::size_t bytes) : m_device(device), m_size(bytes) {
  select_device(device);
  check(cudaMalloc(&m_ptr, bytes),
        "allocating " + core::format_bytes(bytes) + " on GPU " + std::to_string(device));
}

device_memory::~device_memory() {
  if (m_ptr) cudaFree(m_ptr);
}

stream::stream(int device) : m_device(device) {
  select_device(device);
  check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking),
        "creating a stream on GPU " + std::to_string(device));
}

stream::~stream() {
  if (m_stream) cudaStreamDestroy(m_stream);
}

void stream::synchronize(const std::string& what) const {
  check(cudaStreamSynchronize(m_stream), what + " on GPU " + std::to_string(m_device));
}

event::event(int device) {
  select_device(device);
  check(cudaEventCreateWithFlags(&m_event, cudaEventDefault),
        "creating a timing event on GPU " + std::to_string(device));
}

event::~event() {
  if (m_event) cudaEventDestroy(m_event);
}

host_topology::host_topology() {
  if (hwloc_topology_init(&m_topo) != 0) throw std::runtime_error("hwloc: cannot initialise");
  if (hwloc_topology_load(m_topo) != 0) {
    hwloc_topology_destroy(m_topo);
    throw std::runtime_error("hwloc: cannot load the machine's topology");
  }
}

host_topology::~host_topology() {
  hwloc_topology_destroy(m_topo);
}

namespace {

// A bitmap freed with its scope.
struct bitmap {
  hwloc_bitmap_t b = hwloc_bitmap_alloc();
  ~bitmap() { hwloc_bitmap_free(b); }
  bitmap() = default;
  bitmap(const bitmap&) = delete;
  bitmap& operator=(const bitmap&) = delete;
};

}  // namespace

thread_on_node::thread_on_node(const host_topology& topo, std::optional<unsigned> node)
    : m_topo(topo) {
  if (!node || hwloc_get_nbobjs_by_type(topo.get(), HWLOC_OBJ_NUMANODE) <= 1) return;
  hwloc_obj_t obj = hwloc_get_numanode_obj_by_os_index(topo.get(), *node);
  if (!obj) throw std::runtime_error("NUMA node " + std::to_string(*node) + " does not exist");
  m_previous = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo.get(), m_previous, HWLOC_CPUBIND_THREAD) != 0) {
    hwloc_bitmap_free(m_previous);
    m_previous = nullptr;
    throw std::runtime_error("reading the CPU binding of the calling thread");
  }
  // The node's CPUs: those whose memory this node is (a CPU-less memory node has none).
  bitmap cpus;
  hwloc_cpuset_from_nodeset(topo.get(), cpus.b, obj->nodeset);
  if (hwloc_bitmap_iszero(cpus.b)) return;
  if (hwloc_set_cpubind(topo.get(), cpus.b, HWLOC_CPUBIND_THREAD) != 0) {
    hwloc_bitmap_free(m_previous);  // nothing changed, nothing to restore
    m_previous = nullptr;
    throw std::runtime_error("binding the calling thread to the CPUs of NUMA node " +
                             std::to_string(*node) + " was refused");
  }
}

thread_on_node::~thread_on_node() {
  if (!m_previous) return;
  hwloc_set_cpubind(m_topo.get(), m_previous, HWLOC_CPUBIND_THREAD);
  hwloc_bitmap_free(m_previous);
}

host_memory_buffer::host_memory_buffer(const host_topology& topo, std::size_t bytes,
                                       std::optional<unsigned> node, bool pinned, int device)
    : m_topo(topo), m_size(bytes), m_pinned(pinned), m_device(device) {
  // With one node there is nothing to choose, and kernels without NUMA support refuse
  // strict binding: allocate normally.
  if (node && hwloc_get_nbobjs_by_type(topo.get(), HWLOC_OBJ_NUMANODE) <= 1) {
    // The one node this process sees need not be node 0 (a cgroup may allow only node 1).
    const hwloc_obj_t only = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_NUMANODE, 0);
    if (*node != (only ? only->os_index : 0u))
      throw std::runtime_error("NUMA node " + std::to_string(*node) + " does not exist");
    node.reset();
  }
  if (node) {
    hwloc_obj_t obj = hwloc_get_numanode_obj_by_os_index(topo.get(), *node);
    if (!obj) throw std::runtime_error("NUMA node " + std::to_string(*node) + " does not exist");
    m_ptr = hwloc_alloc_membind(topo.get(), bytes, obj->nodeset, HWLOC_MEMBIND_BIND,
                                HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
    m_bound = m_ptr != nullptr;
  }
  if (!m_ptr) m_ptr = hwloc_alloc(topo.get(), bytes);
  if (!m_ptr)
    throw std::runtime_error("allocating " + core::format_bytes(bytes) + " of host memory" +
                             (node ? " on NUMA node " + std::to_string(*node) : std::string()));
  if (node && !m_bound) {
    hwloc_free(topo.get(), m_ptr, bytes);
    throw std::runtime_error("binding " + core::format_bytes(bytes) + " to NUMA node " +
                             std::to_string(*node) + " was refused by the kernel");
  }
  // Touch every page so it is placed now (first touch), not during the first timed copy.
  std::memset(m_ptr, 0, bytes);
  // Where every page really is (move_pages underneath): on the requested node alone, or the
  // case is not what it says.
  bitmap where;
  std::vector<unsigned> nodes;
  if (hwloc_get_area_memlocation(topo.get(), m_ptr, bytes, where.b, HWLOC_MEMBIND_BYNODESET) == 0) {
    // BYNODESET: the bits are the nodes' OS indexes.
    for (int i = hwloc_bitmap_first(where.b); i >= 0; i = hwloc_bitmap_next(where.b, i))
      nodes.push_back(static_cast<unsigned>(i));
  }
  if (nodes.size() == 1) m_placed = nodes.front();
  if (const std::string problem = placement_problem(node, nodes); !problem.empty()) {
    hwloc_free(topo.get(), m_ptr, bytes);
    throw std::runtime_error(problem);
  }
  if (pinned) {
    cudaError_t e = cudaSuccess;
    try {
      select_device(device);
      e = cudaHostRegister(m_ptr, bytes, cudaHostRegisterPortable | cudaHostRegisterMapped);
    } catch (...) {
      hwloc_free(topo.get(), m_ptr, bytes);
      throw;
    }
    if (e != cudaSuccess) {
      hwloc_free(topo.get(), m_ptr, bytes);
      check(e, "pinning " + core::format_bytes(bytes) +
                   " of host memory (cudaHostRegister) on GPU " + std::to_string(device));
    }
  }
}

host_memory_buffer::~host_memory_buffer() {
  if (m_pinned) {
    select_device_quietly(m_device);
    cudaHostUnregister(m_ptr);
  }
  hwloc_free(m_topo.get(), m_ptr, m_size);
}

void* host_memory_buffer::device_pointer() const {
  if (!m_pinned) throw std::logic_error("pageable host memory has no device pointer");
  void* p = nullptr;
  check(cudaHostGetDevicePointer(&p, m_ptr, 0), "mapping pinned host memory for a kernel");
  return p;
}

latch_flag::latch_flag(int device) : m_device(device) {
  select_device(device);
  void* p = nullptr;
  check(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped),
        "allocating the spin latch flag in pinned host memory on GPU " + std::to_string(device));
  m_words = static_cast<volatile int*>(p);
  m_words[0] = 0;
  m_words[1] = 0;
}

latch_flag::~latch_flag() {
  select_device_quietly(m_device);
  cudaFreeHost(const_cast<int*>(m_words));
}

const volatile int* latch_flag::flag_device() const {
  void* p = nullptr;
  check(cudaHostGetDevicePointer(&p, const_cast<int*>(m_words), 0), "mapping the latch flag");
  return static_cast<const volatile int*>(p);
}

int* latch_flag::timed_out_device() const {
  void* p = nullptr;
  check(cudaHostGetDevicePointer(&p, const_cast<int*>(m_words), 0), "mapping the latch flag");
  return static_cast<int*>(p) + 1;
}

}  // namespace gpubench::benchmarks::gpu::cuda

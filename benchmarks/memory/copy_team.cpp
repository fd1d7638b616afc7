#include "benchmarks/memory/copy_team.hpp"

#include <cstring>

namespace gpubench::benchmarks::memory {

namespace {
// Keeps the compiler from merging or dropping repeated copies of the same bytes.
inline void clobber_memory() {
  asm volatile("" : : : "memory");
}
}  // namespace

copy_team::copy_team(const numa_topology& topo, unsigned threads, std::optional<unsigned> node)
    : m_threads(threads == 0 ? 1 : threads),
      m_start(static_cast<std::ptrdiff_t>(m_threads)),
      m_done(static_cast<std::ptrdiff_t>(m_threads)) {
  if (node) topo.bind_thread_to(*node);
  for (unsigned i = 1; i < m_threads; ++i)
    m_workers.emplace_back([this, i, &topo, node] {
      if (node) topo.bind_thread_to(*node);
      work(i);
    });
}

copy_team::~copy_team() {
  if (m_threads > 1) {
    m_stop = true;
    m_start.arrive_and_wait();
  }
}

void copy_team::copy_slice(unsigned index) {
  // Slices are multiples of 64 bytes (a cache line); the last thread takes the remainder.
  const std::size_t per = (m_bytes / m_threads) & ~std::size_t{63};
  const std::size_t begin = per * index;
  const std::size_t len = index + 1 == m_threads ? m_bytes - begin : per;
  for (std::size_t r = 0; r < m_reps; ++r) {
    std::memcpy(m_dst + begin, m_src + begin, len);
    clobber_memory();
  }
}

void copy_team::work(unsigned index) {
  for (;;) {
    m_start.arrive_and_wait();
    if (m_stop) return;
    copy_slice(index);
    m_done.arrive_and_wait();
  }
}

void copy_team::copy(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t reps) {
  m_dst = dst;
  m_src = src;
  m_bytes = bytes;
  m_reps = reps;
  if (m_threads == 1) {
    copy_slice(0);
    return;
  }
  m_start.arrive_and_wait();
  copy_slice(0);
  m_done.arrive_and_wait();
}

}  // namespace gpubench::benchmarks::memory

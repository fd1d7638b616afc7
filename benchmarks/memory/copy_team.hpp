// A fixed team of threads that copy disjoint slices of a buffer together, one sample at a
// time: the multi-threaded body of memory.host.copy.
#pragma once

#include <barrier>
#include <cstddef>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "benchmarks/memory/numa_buffer.hpp"

namespace gpubench::benchmarks::memory {

class copy_team {
 public:
  // `threads` workers (1: the caller copies alone), bound to `node`'s CPUs when given.
  copy_team(const numa_topology& topo, unsigned threads, std::optional<unsigned> node);
  ~copy_team();
  copy_team(const copy_team&) = delete;
  copy_team& operator=(const copy_team&) = delete;

  // Copies `bytes` from src to dst `reps` times, split evenly across the team; returns when
  // every thread is done.
  void copy(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t reps);

 private:
  void work(unsigned index);
  void copy_slice(unsigned index);

  unsigned m_threads;
  std::barrier<> m_start;
  std::barrier<> m_done;
  std::vector<std::jthread> m_workers;
  // The job of the current sample, written before m_start and read after it.
  std::byte* m_dst = nullptr;
  const std::byte* m_src = nullptr;
  std::size_t m_bytes = 0, m_reps = 0;
  bool m_stop = false;
};

}  // namespace gpubench::benchmarks::memory

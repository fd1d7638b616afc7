// What the stand-in knows of every allocation: device memory (its owner), pinned host memory
// (allocated or registered; portable, mapped, and the device current when it was made), so
// copies and kernels can be checked against the rules of CUDA and tests can ask who made what.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gpubench::tests::standin {

enum class memory_kind { device, host_alloc, host_registered };
std::string to_string(memory_kind k);

struct allocation_record {
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  memory_kind kind = memory_kind::device;
  // Device memory: the device it lives on (the current device at cudaMalloc). Host memory:
  // the device current when it was pinned (a non-portable pinning belongs to that context).
  int device = 0;
  bool portable = false;
  bool mapped = false;

  bool contains(std::uintptr_t p, std::size_t n) const {
    return p >= base && p - base <= bytes && n <= bytes - (p - base);
  }
};

class memory_table {
 public:
  void add(const allocation_record& r);
  // Removes the allocation that starts at `base` and is of one of the kinds; unset if none.
  std::optional<allocation_record> remove(std::uintptr_t base, memory_kind a, memory_kind b);
  // The allocation holding the byte at `p`; unset for memory the stand-in did not hand out
  // or pin (pageable host memory, or no memory at all).
  std::optional<allocation_record> find(std::uintptr_t p) const;
  // True when [p, p + n) overlaps any allocation of host memory.
  bool overlaps_host(std::uintptr_t p, std::size_t n) const;
  std::vector<allocation_record> live() const;
  std::vector<allocation_record> history() const;
  // Changes whenever the table does: cached access checks compare it.
  std::uint64_t generation() const { return m_generation.load(std::memory_order_acquire); }
  void bump() { m_generation.fetch_add(1, std::memory_order_acq_rel); }

 private:
  mutable std::mutex m_mutex;
  std::map<std::uintptr_t, allocation_record> m_live;
  std::vector<allocation_record> m_history;
  std::atomic<std::uint64_t> m_generation{1};
};

}  // namespace gpubench::tests::standin

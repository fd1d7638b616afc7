#include "memory_table.hpp"

namespace gpubench::tests::standin {

std::string to_string(memory_kind k) {
  switch (k) {
    case memory_kind::device:
      return "device memory";
    case memory_kind::host_alloc:
      return "pinned host memory (cudaHostAlloc)";
    case memory_kind::host_registered:
      return "registered host memory (cudaHostRegister)";
  }
  return "memory";
}

void memory_table::add(const allocation_record& r) {
  const std::lock_guard lock(m_mutex);
  m_live[r.base] = r;
  m_history.push_back(r);
  bump();
}

std::optional<allocation_record> memory_table::remove(std::uintptr_t base, memory_kind a,
                                                      memory_kind b) {
  const std::lock_guard lock(m_mutex);
  const auto it = m_live.find(base);
  if (it == m_live.end() || (it->second.kind != a && it->second.kind != b)) return std::nullopt;
  allocation_record r = it->second;
  m_live.erase(it);
  bump();
  return r;
}

std::optional<allocation_record> memory_table::find(std::uintptr_t p) const {
  const std::lock_guard lock(m_mutex);
  auto it = m_live.upper_bound(p);
  if (it == m_live.begin()) return std::nullopt;
  --it;
  if (!it->second.contains(p, it->second.bytes == 0 ? 0 : 1)) return std::nullopt;
  return it->second;
}

bool memory_table::overlaps_host(std::uintptr_t p, std::size_t n) const {
  const std::lock_guard lock(m_mutex);
  for (const auto& [base, r] : m_live)
    if (r.kind != memory_kind::device && p < base + r.bytes && base < p + n) return true;
  return false;
}

std::vector<allocation_record> memory_table::live() const {
  const std::lock_guard lock(m_mutex);
  std::vector<allocation_record> out;
  for (const auto& [base, r] : m_live)
    out.push_back(r);
  return out;
}

std::vector<allocation_record> memory_table::history() const {
  const std::lock_guard lock(m_mutex);
  return m_history;
}

}  // namespace gpubench::tests::standin

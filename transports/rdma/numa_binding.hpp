// Binding the calling thread to the RDMA device's NUMA node (perftest binds the process),
// so buffers are first touched there and the polling thread runs next to the device.
#pragma once

#include <sched.h>

#include <optional>
#include <string>
#include <vector>

namespace gpubench::transports::rdma {

// "0-3,8-11" -> {0,1,2,3,8,9,10,11}; empty on a malformed list.
std::vector<int> parse_cpu_list(const std::string& text);

// Restores the thread's previous CPU set on destruction.
class numa_binding {
 public:
  // No node (or a node whose CPUs cannot be read): binds nothing; `note()` says so.
  explicit numa_binding(std::optional<int> node);
  ~numa_binding();
  numa_binding(const numa_binding&) = delete;
  numa_binding& operator=(const numa_binding&) = delete;

  // For the result's context: "bound to NUMA node 1 (CPUs 8-15)" or why not.
  const std::string& note() const { return m_note; }

 private:
  cpu_set_t m_saved{};
  bool m_bound = false;
  std::string m_note;
};

}  // namespace gpubench::transports::rdma

#include "transports/rdma/numa_binding.hpp"

#include <cerrno>

#include "core/errors.hpp"
#include "core/system/sysfs.hpp"

namespace gpubench::transports::rdma {

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const auto dash = item.find('-');
    try {
      std::size_t used = 0;
      const int lo = std::stoi(item.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? item.size() : dash)) return {};
      int hi = lo;
      if (dash != std::string::npos) {
        const std::string rest = item.substr(dash + 1);
        hi = std::stoi(rest, &used);
        if (used != rest.size()) return {};
      }
      if (lo < 0 || hi < lo || hi >= CPU_SETSIZE) return {};
      for (int c = lo; c <= hi; ++c)
        out.push_back(c);
    } catch (const std::exception&) {
      return {};
    }
  }
  return out;
}

numa_binding::numa_binding(std::optional<int> node) {
  if (!node) {
    m_note = "device reports no NUMA node: not bound";
    return;
  }
  const auto list =
      core::read_line("/sys/devices/system/node/node" + std::to_string(*node) + "/cpulist");
  const auto cpus = list ? parse_cpu_list(*list) : std::vector<int>{};
  if (cpus.empty()) {
    m_note = "CPUs of NUMA node " + std::to_string(*node) + " unreadable: not bound";
    return;
  }
  if (sched_getaffinity(0, sizeof m_saved, &m_saved) != 0) {
    m_note = core::errno_message("sched_getaffinity", errno) + ": not bound";
    return;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    CPU_SET(c, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    m_note =
        core::errno_message("binding to NUMA node " + std::to_string(*node), errno) + ": not bound";
    return;
  }
  m_bound = true;
  m_note = "bound to NUMA node " + std::to_string(*node) + " (CPUs " + *list + ")";
}

numa_binding::~numa_binding() {
  if (m_bound) static_cast<void>(sched_setaffinity(0, sizeof m_saved, &m_saved));
}

}  // namespace gpubench::transports::rdma

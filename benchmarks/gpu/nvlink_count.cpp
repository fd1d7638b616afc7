#include "benchmarks/gpu/nvlink_count.hpp"

#include <algorithm>

namespace gpubench::benchmarks::gpu {

namespace {

struct link_counts {
  int direct = 0;
  int to_switch = 0;
};

link_counts count(const std::vector<nvlink_end>& links, const std::string& peer,
                  const std::vector<std::string>& gpus) {
  link_counts c;
  for (const auto& l : links) {
    if (!l.active) continue;
    if (l.type == nvlink_remote::nvswitch) {
      ++c.to_switch;
      continue;
    }
    if (!l.remote_bus.empty() && l.remote_bus == peer) {
      ++c.direct;
      continue;
    }
    const bool far_is_gpu = l.type == nvlink_remote::gpu ||
                            std::find(gpus.begin(), gpus.end(), l.remote_bus) != gpus.end();
    if (l.type == nvlink_remote::unknown && !l.remote_bus.empty() && !far_is_gpu) ++c.to_switch;
  }
  return c;
}

}  // namespace

int nvlink_links_between(const std::vector<nvlink_end>& a, const std::string& bus_a,
                         const std::vector<nvlink_end>& b, const std::string& bus_b,
                         const std::vector<std::string>& gpus) {
  const link_counts ca = count(a, bus_b, gpus);
  const link_counts cb = count(b, bus_a, gpus);
  return ca.direct + std::min(ca.to_switch, cb.to_switch);
}

}  // namespace gpubench::benchmarks::gpu

#include "benchmarks/gpu/host_numa.hpp"

#include <algorithm>
#include <memory>

#include <hwloc.h>

namespace gpubench::benchmarks::gpu {

namespace {

struct topology_deleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};

std::string list_of(const std::vector<numa_node>& nodes, bool allowed_only) {
  std::string s;
  for (const auto& n : nodes)
    if (!allowed_only || n.allowed) s += (s.empty() ? "" : ", ") + std::to_string(n.os_index);
  return s.empty() ? "none" : s;
}

}  // namespace

std::vector<numa_node> host_numa_nodes() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return {numa_node{}};
  const std::unique_ptr<hwloc_topology, topology_deleter> topo(raw);
  // Without this flag hwloc leaves out the nodes the cgroup forbids, and a case list from
  // sysfs would name nodes the buffers cannot be placed on.
  if (hwloc_topology_set_flags(raw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) != 0 ||
      hwloc_topology_load(raw) != 0)
    return {numa_node{}};
  auto nodes = numa_nodes_of(raw);
  if (nodes.empty()) nodes.push_back(numa_node{});
  return nodes;
}

std::vector<numa_node> numa_nodes_of(hwloc_topology* topo) {
  std::vector<numa_node> out;
  const hwloc_const_nodeset_t allowed = hwloc_topology_get_allowed_nodeset(topo);
  for (hwloc_obj_t n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, nullptr); n;
       n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n))
    out.push_back({n->os_index, hwloc_bitmap_isset(allowed, n->os_index) != 0});
  std::sort(out.begin(), out.end(),
            [](const numa_node& a, const numa_node& b) { return a.os_index < b.os_index; });
  return out;
}

std::vector<unsigned> numa_indexes(const std::vector<numa_node>& nodes) {
  std::vector<unsigned> out;
  for (const auto& n : nodes)
    out.push_back(n.os_index);
  return out;
}

std::optional<std::string> numa_node_refusal(const std::vector<numa_node>& nodes, unsigned node) {
  const auto it = std::find_if(nodes.begin(), nodes.end(),
                               [node](const numa_node& n) { return n.os_index == node; });
  if (it == nodes.end())
    return "NUMA node " + std::to_string(node) + " does not exist on this host (nodes " +
           list_of(nodes, false) + ")";
  if (!it->allowed)
    return "NUMA node " + std::to_string(node) +
           " is not allowed to this process: its cgroup or cpuset (a Kubernetes pod, a Slurm "
           "job, numactl) restricts memory to node(s) " +
           list_of(nodes, true) + ", so no host memory can be placed there";
  return std::nullopt;
}

}  // namespace gpubench::benchmarks::gpu

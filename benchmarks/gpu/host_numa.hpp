// The host's NUMA nodes for the GPU cases, from the same hwloc view that places their host
// memory, with the nodes this process may not allocate on (a cgroup's cpuset.mems: a
// Kubernetes pod, a Slurm job) kept and marked, so their cases are skipped with the reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

struct hwloc_topology;

namespace gpubench::benchmarks::gpu {

struct numa_node {
  unsigned os_index = 0;
  bool allowed = true;  // this process may place memory there
};

// This machine's NUMA nodes, in OS index order, disallowed ones included; node 0, allowed,
// when hwloc cannot load the topology (the case then fails with hwloc's own error).
std::vector<numa_node> host_numa_nodes();

// The nodes of a loaded topology, in OS index order, each marked by the topology's allowed
// nodeset. A topology loaded without HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED has no
// disallowed nodes to show.
std::vector<numa_node> numa_nodes_of(hwloc_topology* topo);

// The OS indexes, one case per node.
std::vector<unsigned> numa_indexes(const std::vector<numa_node>& nodes);

// Why a case on `node` cannot run (not on this host, or not allowed to this process);
// nothing when it can.
std::optional<std::string> numa_node_refusal(const std::vector<numa_node>& nodes, unsigned node);

}  // namespace gpubench::benchmarks::gpu

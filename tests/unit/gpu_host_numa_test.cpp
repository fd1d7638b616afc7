// The NUMA nodes of the GPU cases come from hwloc, disallowed nodes included and marked, so a
// case on a node the cgroup forbids is skipped with the reason rather than failing.
#include <gtest/gtest.h>

#include <memory>

#include <hwloc.h>

#include "benchmarks/gpu/gpu_cases.hpp"
#include "benchmarks/gpu/host_numa.hpp"

namespace gpubench::benchmarks::gpu {
namespace {

struct topology_deleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using topology_ptr = std::unique_ptr<hwloc_topology, topology_deleter>;

// A synthetic two-socket machine, one NUMA node per socket; `allowed` (OS indexes) is the
// nodeset a cgroup would leave this process, empty for all.
topology_ptr two_nodes(const std::vector<unsigned>& allowed) {
  hwloc_topology_t raw = nullptr;
  EXPECT_EQ(hwloc_topology_init(&raw), 0);
  topology_ptr t(raw);
  EXPECT_EQ(hwloc_topology_set_synthetic(raw, "pack:2 numa:1 core:2 pu:1"), 0);
  EXPECT_EQ(hwloc_topology_set_flags(raw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED), 0);
  EXPECT_EQ(hwloc_topology_load(raw), 0);
  if (!allowed.empty()) {
    hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
    for (const unsigned n : allowed)
      hwloc_bitmap_set(nodes, n);
    EXPECT_EQ(hwloc_topology_allow(raw, nullptr, nodes, HWLOC_ALLOW_FLAG_CUSTOM), 0);
    hwloc_bitmap_free(nodes);
  }
  return t;
}

TEST(GpuHostNuma, EveryNodeListedAndAllowed) {
  const auto t = two_nodes({});
  const auto nodes = numa_nodes_of(t.get());
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(numa_indexes(nodes), (std::vector<unsigned>{0, 1}));
  EXPECT_TRUE(nodes[0].allowed);
  EXPECT_TRUE(nodes[1].allowed);
  EXPECT_FALSE(numa_node_refusal(nodes, 0));
  EXPECT_FALSE(numa_node_refusal(nodes, 1));
  // One pinned case per node and engine for a GPU, as many latency cases as nodes.
  EXPECT_EQ(host_latency_cases(1, numa_indexes(nodes)).size(), 2u);
}

TEST(GpuHostNuma, ANodeTheCgroupForbidsIsListedAndSkippedWithTheReason) {
  const auto t = two_nodes({0});
  const auto nodes = numa_nodes_of(t.get());
  ASSERT_EQ(nodes.size(), 2u) << "the forbidden node must still have its case";
  EXPECT_TRUE(nodes[0].allowed);
  EXPECT_FALSE(nodes[1].allowed);
  EXPECT_FALSE(numa_node_refusal(nodes, 0));
  const auto why = numa_node_refusal(nodes, 1);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("NUMA node 1 is not allowed"), std::string::npos) << *why;
  EXPECT_NE(why->find("restricts memory to node(s) 0"), std::string::npos) << *why;
  EXPECT_EQ(why->find("does not exist"), std::string::npos) << *why;
}

TEST(GpuHostNuma, OnlyTheSecondNodeAllowed) {
  const auto t = two_nodes({1});
  const auto nodes = numa_nodes_of(t.get());
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_FALSE(nodes[0].allowed);
  EXPECT_TRUE(nodes[1].allowed);
  EXPECT_TRUE(numa_node_refusal(nodes, 0));
  EXPECT_FALSE(numa_node_refusal(nodes, 1));
}

TEST(GpuHostNuma, ANodeNotOnTheHost) {
  const std::vector<numa_node> nodes{{0, true}, {1, true}};
  const auto why = numa_node_refusal(nodes, 3);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("NUMA node 3 does not exist on this host (nodes 0, 1)"), std::string::npos)
      << *why;
}

TEST(GpuHostNuma, ThisMachineHasAnAllowedNode) {
  // Whatever the machine: at least one node, and this process may use one of them.
  const auto nodes = host_numa_nodes();
  ASSERT_FALSE(nodes.empty());
  bool any = false;
  for (const auto& n : nodes)
    any = any || n.allowed;
  EXPECT_TRUE(any);
}

}  // namespace
}  // namespace gpubench::benchmarks::gpu

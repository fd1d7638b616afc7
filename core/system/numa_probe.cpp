#include <hwloc.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "core/system/system_probe.hpp"

namespace gpubench::core {

namespace {
struct topology_deleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using topology_ptr = std::unique_ptr<hwloc_topology, topology_deleter>;

std::string cpuset_list(hwloc_const_bitmap_t set) {
  char* s = nullptr;
  if (hwloc_bitmap_list_asprintf(&s, set) < 0 || s == nullptr) return "";
  std::string out(s);
  std::free(s);
  return out;
}

// The firmware's relative latencies between NUMA nodes (10 = local), one row per node, when
// the machine publishes them (ACPI SLIT).
std::vector<std::vector<std::uint64_t>> numa_distances(hwloc_topology_t topo) {
  unsigned nr = 1;
  hwloc_distances_s* d = nullptr;
  if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &d,
                                  HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) != 0 ||
      nr == 0 || d == nullptr)
    return {};
  const std::unique_ptr<hwloc_distances_s, std::function<void(hwloc_distances_s*)>> guard(
      d, [topo](hwloc_distances_s* p) { hwloc_distances_release(topo, p); });
  // Rows and columns in the nodes' logical order, whatever order the matrix lists them in.
  const unsigned n = d->nbobjs;
  std::vector<std::vector<std::uint64_t>> rows(n, std::vector<std::uint64_t>(n, 0));
  for (unsigned i = 0; i < n; ++i)
    for (unsigned k = 0; k < n; ++k) {
      const auto r = d->objs[i]->logical_index, c = d->objs[k]->logical_index;
      if (r >= n || c >= n) return {};
      rows[r][c] = static_cast<std::uint64_t>(d->values[i * n + k]);
    }
  return rows;
}
}  // namespace

nlohmann::json probe_numa(const probe_roots& roots) {
  nlohmann::json j = {{"numa_nodes", 0}, {"numa", nlohmann::json::array()}};
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return j;
  topology_ptr topo(raw);
  if (!roots.hwloc_xml.empty() && hwloc_topology_set_xml(raw, roots.hwloc_xml.c_str()) != 0)
    return j;
  if (hwloc_topology_load(raw) != 0) return j;
  const int sockets = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PACKAGE);
  const int cores = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_CORE);
  const int pus = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PU);
  j["cpu"] = {{"sockets", sockets}, {"cores", cores}, {"threads", pus}};
  const int nodes = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_NUMANODE);
  j["numa_nodes"] = nodes;
  const auto distances = numa_distances(raw);
  for (int i = 0; i < nodes; ++i) {
    hwloc_obj_t n = hwloc_get_obj_by_type(raw, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    nlohmann::json node = {{"node", n->os_index},
                           {"cpus", cpuset_list(n->cpuset)},
                           {"memory_bytes", n->attr ? n->attr->numanode.local_memory : 0}};
    if (distances.size() == static_cast<std::size_t>(nodes))
      node["distances"] = distances[n->logical_index];
    j["numa"].push_back(std::move(node));
  }
  return j;
}

}  // namespace gpubench::core

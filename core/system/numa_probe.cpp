#include <hwloc.h>

#include <memory>

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
}  // namespace

nlohmann::json probe_numa() {
  nlohmann::json j = {{"numa_nodes", 0}, {"numa", nlohmann::json::array()}};
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return j;
  topology_ptr topo(raw);
  if (hwloc_topology_load(raw) != 0) return j;
  const int sockets = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PACKAGE);
  const int cores = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_CORE);
  const int pus = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PU);
  j["cpu_topology"] = {{"sockets", sockets}, {"cores", cores}, {"threads", pus}};
  const int nodes = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_NUMANODE);
  j["numa_nodes"] = nodes;
  for (int i = 0; i < nodes; ++i) {
    hwloc_obj_t n = hwloc_get_obj_by_type(raw, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    j["numa"].push_back({{"node", n->os_index},
                         {"cpus", cpuset_list(n->cpuset)},
                         {"memory_bytes", n->attr ? n->attr->numanode.local_memory : 0}});
  }
  return j;
}

}  // namespace gpubench::core

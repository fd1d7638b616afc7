// The machine a test asks the stand-in to be: how many GPUs, which pairs can reach each other
// directly, their NUMA nodes, and how long the stand-in lets asynchronous work lag behind.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace gpubench::tests::standin {

enum class compute_mode { shared, exclusive_process };

struct machine_config {
  int devices = 4;
  // The physical GPU behind each device index (as CUDA_VISIBLE_DEVICES renumbers them: PCI
  // bus ids, names and contexts are the physical GPU's); empty: the index itself.
  std::vector<int> physical;
  // EXCLUSIVE_PROCESS: a context on a GPU refuses every other process's, for as long as the
  // process holding it keeps it (until cudaDeviceReset or its exit). Processes of one
  // simulated node see each other's contexts through lock files in `node_dir`.
  compute_mode mode = compute_mode::shared;
  std::string node_dir;
  // cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED).
  bool dmabuf = true;
  // Unordered pairs with peer access possible both ways; every other pair copies staged.
  std::vector<std::pair<int, int>> peer_pairs = {{0, 1}, {2, 3}};
  std::vector<int> numa_nodes;  // per device (cudaDevAttrHostNumaId); empty: all on node 0
  // Two SMs: the copy kernel's grid stride is 1024 elements, so 64 KiB copies reach its
  // four-loads-in-flight loop and 32 KiB ones only its tail.
  int sm_count = 2;
  // A copy from pageable memory returns once its bytes are staged; they land when the host
  // next synchronises with the stream or its device (the latest moment CUDA allows), or after
  // this long: code that reads them without synchronising sees the old bytes every time,
  // not only on an unlucky day.
  std::chrono::microseconds pageable_landing{200'000};
  // Before every queued copy, memset and kernel: widens every window in which unsynchronised
  // code could read too early (0 for the end-to-end runs, which need no more).
  std::chrono::microseconds operation_delay{0};
  // On top of it, per device (index = device; missing = none): one GPU slower than another,
  // so that what a faster stream does while a slower one is still busy can be seen.
  std::vector<std::chrono::microseconds> device_delay;

  // 4 GPUs: 0<->1 and 2<->3 peer-capable (NVLink-like pairs), the other pairs staged.
  static machine_config four_gpus() { return {}; }
  bool peers(int a, int b) const;
  int numa_of(int device) const;
  std::chrono::microseconds delay_of(int device) const;
  int physical_of(int device) const;
};

inline int machine_config::physical_of(int device) const {
  return device >= 0 && static_cast<std::size_t>(device) < physical.size()
             ? physical[static_cast<std::size_t>(device)]
             : device;
}

inline bool machine_config::peers(int a, int b) const {
  for (const auto& [x, y] : peer_pairs)
    if ((x == a && y == b) || (x == b && y == a)) return a != b;
  return false;
}

inline int machine_config::numa_of(int device) const {
  return device >= 0 && static_cast<std::size_t>(device) < numa_nodes.size()
             ? numa_nodes[static_cast<std::size_t>(device)]
             : 0;
}

inline std::chrono::microseconds machine_config::delay_of(int device) const {
  const bool listed = device >= 0 && static_cast<std::size_t>(device) < device_delay.size();
  return operation_delay +
         (listed ? device_delay[static_cast<std::size_t>(device)] : std::chrono::microseconds{0});
}

}  // namespace gpubench::tests::standin

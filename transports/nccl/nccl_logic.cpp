#include "transports/nccl/nccl_logic.hpp"

#include <map>
#include <utility>

namespace gpubench::transports::nccl {

std::optional<int> device_for_local_rank(int index, int device_count, std::string& why) {
  if (device_count <= 0) {
    why = "needs a CUDA device: none visible to this rank";
    return std::nullopt;
  }
  return index % device_count;
}

std::vector<int> index_among_same_devices(
    const std::vector<std::pair<int, std::string>>& node_devices) {
  std::map<std::pair<int, std::string>, int> seen;
  std::vector<int> out;
  for (const auto& key : node_devices)
    out.push_back(seen[key]++);
  return out;
}

std::optional<std::string> duplicate_gpus(const std::vector<rank_gpu>& ranks) {
  std::map<std::pair<int, std::string>, std::vector<int>> users;
  for (const auto& r : ranks)
    users[{r.node, r.bus_id}].push_back(r.rank);
  for (const auto& r : ranks) {
    const auto& same = users[{r.node, r.bus_id}];
    if (same.size() < 2) continue;
    std::string list;
    for (const int x : same)
      list += (list.empty() ? "" : ", ") + std::to_string(x);
    return "ranks " + list + " on " + (r.host.empty() ? "node " + std::to_string(r.node) : r.host) +
           " share GPU " + r.bus_id +
           ": NCCL needs one GPU per rank (\"Duplicate GPU detected\"); start at most one rank "
           "per GPU on each node, or give each rank its own device with CUDA_VISIBLE_DEVICES";
  }
  return std::nullopt;
}

std::vector<std::string> nccl_library_candidates(const std::optional<std::string>& explicit_path) {
  if (explicit_path && !explicit_path->empty()) return {*explicit_path};
  return {"libnccl.so.2", "libnccl.so"};
}

std::string nccl_version_text(int code) {
  int major = 0, minor = 0, patch = 0;
  if (code >= 20900) {
    major = code / 10000;
    minor = code % 10000 / 100;
    patch = code % 100;
  } else {
    major = code / 1000;
    minor = code % 1000 / 100;
    patch = code % 100;
  }
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace gpubench::transports::nccl

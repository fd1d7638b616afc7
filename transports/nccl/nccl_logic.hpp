// NCCL decisions that need no GPU, kept apart so they are unit-tested everywhere: which
// device a rank drives, which library file to load, and how a version code reads.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpubench::transports::nccl {

// The CUDA device of a rank that sees `device_count` devices and is the `index`-th of the
// ranks of its node that see the same devices: `index` modulo the count (every local GPU;
// 0 with a per-rank CUDA_VISIBLE_DEVICES; a task's share of the node's GPUs under
// srun --gpu-bind); nothing, with `why`, when it sees none. More ranks than devices land on a
// GPU twice, which duplicate_gpus() names.
std::optional<int> device_for_local_rank(int index, int device_count, std::string& why);

// Each rank's index among the ranks before it (in communicator order) with the same node and
// the same visible devices (`node_devices[r]`: rank r's node and its devices' bus ids).
std::vector<int> index_among_same_devices(
    const std::vector<std::pair<int, std::string>>& node_devices);

// One rank's GPU as its node sees it: two ranks of one node on one GPU make NCCL fail in
// its init with "Duplicate GPU detected", which names neither rank nor device.
struct rank_gpu {
  int rank = 0;        // in the communicator
  int node = 0;        // node index (ranks of one node share it)
  std::string host;    // for the message
  std::string bus_id;  // PCI bus id, "0000:3b:00.0"
};

// Nothing when every rank of each node drives a GPU of its own, or a message naming the
// ranks, the node and the bus id they share and what to do.
std::optional<std::string> duplicate_gpus(const std::vector<rank_gpu>& ranks);

// Library names to try in order: an explicit GPUBENCH_NCCL_LIBRARY first, then the
// loader's search (LD_LIBRARY_PATH, ld.so.cache).
std::vector<std::string> nccl_library_candidates(const std::optional<std::string>& explicit_path);

// NCCL's version code (ncclGetVersion, NCCL_VERSION_CODE) as "2.28.9": codes from 2.9 on
// are major*10000 + minor*100 + patch, older ones major*1000 + minor*100 + patch.
std::string nccl_version_text(int code);

}  // namespace gpubench::transports::nccl

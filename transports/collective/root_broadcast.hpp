// Data made on one member of a process group and broadcast to the others (NCCL's unique
// id), with the maker's failure told to every member before anyone enters the broadcast.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "transports/collective/process_group.hpp"

namespace gpubench::coll {

// Runs `make` (which fills `data`) on rank `root` alone, then broadcasts `data` from it.
// When `make` throws, every member throws std::runtime_error (root with make's message, the
// others naming root) and no broadcast starts: a root that failed alone would leave the
// others waiting in the broadcast until the watchdog aborts the whole job.
void make_and_broadcast(process_group& group, std::span<std::byte> data, int root,
                        const std::function<void()>& make);

}  // namespace gpubench::coll

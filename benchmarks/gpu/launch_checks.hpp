// Conditions that make a GPU case impossible before it starts, with the reason a user reads:
// CUDA_LAUNCH_BLOCKING (no latch can work), host memory that is not on the node the case
// names. (A driver too old or missing: core/system/cuda_driver_text.hpp, shared with NCCL.)
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpubench::benchmarks::gpu {

// CUDA_LAUNCH_BLOCKING=1 makes every launch wait for the kernel: the spin kernel would hold
// the host until its timeout, and every latched sample would fail after 10 s. Unset when
// the latch can work.
std::optional<std::string> latch_refusal(const char* cuda_launch_blocking);

// Empty when `nodes` (the NUMA nodes the pages of a buffer are on) fit the request: the one
// requested node alone, or anything when none was requested; else what is wrong.
std::string placement_problem(std::optional<unsigned> requested,
                              const std::vector<unsigned>& nodes);

}  // namespace gpubench::benchmarks::gpu

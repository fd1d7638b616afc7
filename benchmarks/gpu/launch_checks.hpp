// Conditions that make a GPU case impossible before it starts, with the reason a user reads:
// CUDA_LAUNCH_BLOCKING (no latch can work), a driver older than the runtime built in, host
// memory that is not on the node the case names.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpubench::benchmarks::gpu {

// CUDA_LAUNCH_BLOCKING=1 makes every launch wait for the kernel: the spin kernel would hold
// the host until its timeout, and every latched sample would fail after 10 s. Unset when
// the latch can work.
std::optional<std::string> latch_refusal(const char* cuda_launch_blocking);

// "12.2" from CUDA's 12020.
std::string cuda_version_text(int version);

// The skip reason when cudaGetDeviceCount says the driver is too old for the runtime
// linked into gpubench: both versions and what to do.
std::string driver_too_old_reason(int driver_version, int runtime_version);

// Empty when `nodes` (the NUMA nodes the pages of a buffer are on) fit the request: the one
// requested node alone, or anything when none was requested; else what is wrong.
std::string placement_problem(std::optional<unsigned> requested,
                              const std::vector<unsigned>& nodes);

}  // namespace gpubench::benchmarks::gpu

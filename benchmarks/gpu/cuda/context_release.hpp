// A gpu.* job that gives back its GPUs' contexts when it ends: under an MPI launch one rank
// of a node runs every node-local GPU case on every GPU, then each rank takes one GPU for
// the collectives; a context still held there refuses the other ranks' under
// EXCLUSIVE_PROCESS (cudaSetDevice fails, NCCL's init waits for the watchdog) and holds
// GPU memory in the default mode (CHECKLISTS (a) 22).
#pragma once

#include <memory>
#include <vector>

#include "benchmarks/gpu/gpu_backend.hpp"

namespace gpubench::benchmarks::gpu::cuda {

// `job`, whose destruction is followed by cudaDeviceReset on each of `devices`.
std::unique_ptr<copy_job> releasing_contexts(std::unique_ptr<copy_job> job,
                                             std::vector<int> devices);

}  // namespace gpubench::benchmarks::gpu::cuda

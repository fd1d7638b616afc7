// Host-side launchers of the GPU family's kernels (kernels.cu): the spin latch, the copy
// kernels, pattern fill and check, and the pointer chase. Each checks its launch.
#pragma once

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "benchmarks/gpu/copy_schedule.hpp"

namespace gpubench::benchmarks::gpu::cuda {

// Loads every kernel on each of `devices` (the job's own, copy_plan.hpp's job_devices) now:
// with lazy loading, a kernel first launched while a spin kernel holds the device needs a
// synchronisation and deadlocks behind it.
void preload_kernels(const std::vector<int>& devices);

// Spins until *flag != 0 or `timeout_clocks` SM clocks passed; then sets *timed_out = 1.
// Both pointers are mapped, portable pinned host memory.
void launch_spin(cudaStream_t s, const volatile int* flag, int* timed_out,
                 long long timeout_clocks);

// `loops` times copies g.elements 16-byte words from src to dst (any memory the executing
// device can address).
void launch_copy(cudaStream_t s, const void* src, void* dst, const kernel_geometry& g,
                 unsigned loops);

// Even warps copy src0 -> dst0, odd warps src1 -> dst1 over the same indices, at once.
void launch_split_copy(cudaStream_t s, const void* src0, void* dst0, const void* src1, void* dst1,
                       const kernel_geometry& g, unsigned loops);

// Writes pattern_word(i, seed) to every 32-bit word of buf.
void launch_fill(cudaStream_t s, void* buf, std::uint64_t words, std::uint32_t seed);
// Adds the number of words that differ from the pattern to *errors (device memory).
void launch_check(cudaStream_t s, const void* buf, std::uint64_t words, std::uint32_t seed,
                  unsigned long long* errors);

// One thread follows `loads` dependent pointers from `start`, loads not cached, and stores
// where it ended in *end (so the loop cannot be removed, and the host can check it).
void launch_chase(cudaStream_t s, const void* start, std::uint64_t loads, void** end);

}  // namespace gpubench::benchmarks::gpu::cuda

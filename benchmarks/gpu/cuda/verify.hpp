// Pattern fill and check of copy buffers, outside the timed region: on the CPU for host
// memory, with kernels (errors counted by an atomic) for device memory.
#pragma once

#include <cstdint>
#include <string>

#include "benchmarks/gpu/cuda/resources.hpp"

namespace gpubench::benchmarks::gpu::cuda {

void fill_host(void* buf, std::uint64_t bytes, std::uint32_t seed);
std::uint64_t host_mismatches(const void* buf, std::uint64_t bytes, std::uint32_t seed);

// On `s`'s device, then synchronised: the buffer is ready (or checked) on return.
void fill_device(const stream& s, void* buf, std::uint64_t bytes, std::uint32_t seed);
std::uint64_t device_mismatches(const stream& s, const void* buf, std::uint64_t bytes,
                                std::uint32_t seed);

// Throws "<what>: N of M words differ ..." when `wrong` is not zero.
void expect_no_mismatch(std::uint64_t wrong, std::uint64_t bytes, const std::string& what);

}  // namespace gpubench::benchmarks::gpu::cuda

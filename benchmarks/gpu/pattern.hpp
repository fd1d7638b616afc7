// The data pattern that copies are verified against: a hash of the word index and a seed,
// computed the same way on the host and on the device.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define GPUBENCH_HD __host__ __device__
#else
#define GPUBENCH_HD
#endif

namespace gpubench::benchmarks::gpu {

// Different seeds give different words at every index, so a copy that did not happen, or
// happened from the wrong offset, fails the check.
GPUBENCH_HD constexpr std::uint32_t pattern_word(std::uint64_t index, std::uint32_t seed) {
  std::uint64_t x = index * 0x9e3779b97f4a7c15ull + seed;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return static_cast<std::uint32_t>(x) ^ seed;
}

}  // namespace gpubench::benchmarks::gpu

// How a sample of a GPU copy is shaped: copies queued behind the latch, and the copy
// kernel's grid. Plain constexpr so the CUDA code and the unit tests share it.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpubench::benchmarks::gpu {

struct copy_schedule {
  unsigned warmup = 4;  // untimed copies after the spin kernel, before the start event
  unsigned loops = 16;  // timed copies per sample
};

// nvbandwidth queues 4 + 16 copies behind the latch. Large copies keep the queue shorter
// so a sample of 1 GiB lasts tens of milliseconds, not seconds; the queue never grows long
// enough to block the host before it releases the latch.
constexpr copy_schedule schedule_for(std::uint64_t bytes) {
  if (bytes >= (256ull << 20)) return {1, 2};
  if (bytes >= (32ull << 20)) return {2, 4};
  return {4, 16};
}

struct kernel_geometry {
  unsigned blocks = 0;
  unsigned threads = 0;
  std::uint64_t elements = 0;  // 16-byte elements copied
  std::uint64_t bytes = 0;     // bytes actually copied: what bandwidth is computed from
};

inline constexpr unsigned copy_threads = 512;

// The split-warp kernel (both directions in one kernel) runs this many blocks per SM, a full
// SM's 2048 threads on Volta to Hopper: each direction gets half the warps. Measured on an
// H200's PCIe 5.0 link at 512 MiB against nvbandwidth's split-warp copy (84.98 GB/s both
// ways): 1 block per SM moved 77.5-78.0 GB/s, 2 blocks 80.4, 4 blocks 82.7 (docs/gpu.md).
inline constexpr unsigned split_copy_blocks_per_sm = 4;

// `blocks_per_sm` blocks per SM for large copies (each thread strides the grid), fewer for
// small ones. Bytes past the last whole 16-byte element are not copied, and not counted.
constexpr kernel_geometry sm_copy_geometry(std::uint64_t bytes, int sm_count,
                                           unsigned blocks_per_sm = 1) {
  kernel_geometry g;
  g.threads = copy_threads;
  g.elements = bytes / 16;
  g.bytes = g.elements * 16;
  const std::uint64_t needed = (g.elements + copy_threads - 1) / copy_threads;
  const std::uint64_t sms = sm_count > 0 ? static_cast<std::uint64_t>(sm_count) : 1;
  const std::uint64_t most = sms * std::max(1u, blocks_per_sm);
  g.blocks = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(most, needed)));
  return g;
}

// Pointer chase: 128-byte nodes (one per L2 line pair on every GPU since Volta) in a
// 2 MiB buffer, as nvbandwidth; loads per sample keep a sample near 100 ms over PCIe. One
// load past whole laps: the chase ends on node 1, so a chain whose nodes point at
// themselves, or a loop that never ran, does not end where the check expects (after whole
// laps it would end on node 0, where it started, and pass).
inline constexpr std::uint64_t chase_buffer_bytes = 2ull << 20;
inline constexpr std::uint64_t chase_stride_bytes = 128;
inline constexpr std::uint64_t chase_loads = (1ull << 17) + 1;

// The node the chase ends on after `loads` steps from node 0.
constexpr std::uint64_t chase_end_node(std::uint64_t loads) {
  return loads % (chase_buffer_bytes / chase_stride_bytes);
}

}  // namespace gpubench::benchmarks::gpu

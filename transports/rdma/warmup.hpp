// How many work requests the untimed warm-up before a bandwidth point posts.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpubench::transports::rdma {

// perftest posts one full window (--tx-depth work requests) of the point's size before it
// times anything: every page of the buffer is touched and the adapter's translation caches and
// the queue pair are warm. Past 16 MiB a longer warm-up adds only time (all work requests use
// the same buffer, so 16 of 1 MiB touch it 16 times), and on a slow path it is a lot of time:
// 128 x 1 MiB at soft-RoCE's 10 MB/s was 13 s per size.
inline constexpr std::uint64_t warmup_bytes_cap = 16ull << 20;

constexpr std::uint64_t warmup_messages(std::uint64_t bytes, std::uint64_t window) {
  const std::uint64_t by_bytes = warmup_bytes_cap / std::max<std::uint64_t>(bytes, 1);
  return std::max<std::uint64_t>(1, std::min(window, by_bytes));
}

}  // namespace gpubench::transports::rdma

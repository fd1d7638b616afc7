// Kernels of the GPU copy and latency benchmarks, after nvbandwidth's kernels.cu.
#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/kernel_launch.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/pattern.hpp"

namespace gpubench::benchmarks::gpu::cuda {

namespace {

__global__ void spin_kernel(const volatile int* flag, int* timed_out, long long timeout_clocks) {
  // clock64 is per SM and monotonic while the kernel runs; the volatile load is re-read
  // every iteration, so the loop cannot be hoisted.
  const long long end = clock64() + timeout_clocks;
  while (*flag == 0) {
    if (clock64() > end) {
      *reinterpret_cast<volatile int*>(timed_out) = 1;
      return;
    }
  }
}

// Four loads in flight per thread before the stores, then a tail: enough parallelism to
// saturate PCIe and NVLink from one block per SM. __ldcg/__stcg keep L1 out of the way.
// Copies elements first, first + stride, ... below n, four loads in flight per thread.
__device__ void copy_strided(const uint4* __restrict__ src, uint4* __restrict__ dst,
                             std::uint64_t first, std::uint64_t stride, std::uint64_t n) {
    std::uint64_t i = first;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const uint4 a = __ldcg(src + i);
      const uint4 b = __ldcg(src + i + stride);
      const uint4 c = __ldcg(src + i + 2 * stride);
      const uint4 d = __ldcg(src + i + 3 * stride);
      __stcg(dst + i, a);
      __stcg(dst + i + stride, b);
      __stcg(dst + i + 2 * stride, c);
      __stcg(dst + i + 3 * stride, d);
    }
    for (; i < n; i += stride)
      __stcg(dst + i, __ldcg(src + i));
}

__global__ void copy_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, std::uint64_t n,
                            unsigned loops) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (unsigned l = 0; l < loops; ++l)
    copy_strided(src, dst, first, stride, n);
}

__global__ void split_copy_kernel(const uint4* __restrict__ src0, uint4* __restrict__ dst0,
                                  const uint4* __restrict__ src1, uint4* __restrict__ dst1,
                                  std::uint64_t n, unsigned loops) {
  const std::uint64_t thread = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t warp = thread / warpSize;
  const unsigned lane = threadIdx.x % warpSize;
  const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / warpSize;
  const bool odd = (warp & 1) != 0;
  const uint4* src = odd ? src1 : src0;
  uint4* dst = odd ? dst1 : dst0;
  // Each direction has half the warps; both walk the same indices, four loads in flight per
  // thread as in copy_kernel (with one, an H100's PCIe link moved 68 GB/s both ways where
  // nvbandwidth moves 85).
  const std::uint64_t stride = (warps / 2) * warpSize;
  const std::uint64_t first = (warp / 2) * warpSize + lane;
  for (unsigned l = 0; l < loops; ++l)
    copy_strided(src, dst, first, stride, n);
}

__global__ void fill_kernel(std::uint32_t* buf, std::uint64_t words, std::uint32_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < words; i += stride)
    buf[i] = pattern_word(i, seed);
}

__global__ void check_kernel(const std::uint32_t* buf, std::uint64_t words, std::uint32_t seed,
                             unsigned long long* errors) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long wrong = 0;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < words; i += stride)
    wrong += buf[i] != pattern_word(i, seed) ? 1u : 0u;
  if (wrong != 0) atomicAdd(errors, wrong);
}

struct chase_node {
  chase_node* next;
};

__global__ void chase_kernel(const chase_node* start, std::uint64_t loads, void** end) {
  const chase_node* p = start;
  for (std::uint64_t i = 0; i < loads; ++i) {
    // ld.cv: fetched again from the memory that owns it, never served from a cache line
    // a previous lap left in L1/L2, so host and peer latency are not hidden.
    p = reinterpret_cast<const chase_node*>(
        __ldcv(reinterpret_cast<const unsigned long long*>(&p->next)));
  }
  if (p == nullptr) __trap();
  *end = const_cast<chase_node*>(p);
}

constexpr unsigned fill_threads = 256;

unsigned fill_blocks(std::uint64_t words) {
  const std::uint64_t needed = (words + fill_threads - 1) / fill_threads;
  return static_cast<unsigned>(needed < 1024 ? (needed == 0 ? 1 : needed) : 1024);
}

}  // namespace

void preload_kernels(const std::vector<int>& devices) {
  for (const int d : devices) {
    select_device(d);
    cudaFuncAttributes attr{};
    check(cudaFuncGetAttributes(&attr, spin_kernel),
          "loading the spin kernel on GPU " + std::to_string(d));
    check(cudaFuncGetAttributes(&attr, copy_kernel), "loading the copy kernel");
    check(cudaFuncGetAttributes(&attr, split_copy_kernel), "loading the split copy kernel");
    check(cudaFuncGetAttributes(&attr, fill_kernel), "loading the fill kernel");
    check(cudaFuncGetAttributes(&attr, check_kernel), "loading the check kernel");
    check(cudaFuncGetAttributes(&attr, chase_kernel), "loading the pointer-chase kernel");
  }
}

void launch_spin(cudaStream_t s, const volatile int* flag, int* timed_out,
                 long long timeout_clocks) {
  GPUBENCH_LAUNCH(spin_kernel, 1, 1, 0, s, flag, timed_out, timeout_clocks);
  check(cudaGetLastError(), "launching the spin kernel");
}

void launch_copy(cudaStream_t s, const void* src, void* dst, const kernel_geometry& g,
                 unsigned loops) {
  GPUBENCH_LAUNCH(copy_kernel, g.blocks, g.threads, 0, s, static_cast<const uint4*>(src),
                  static_cast<uint4*>(dst), g.elements, loops);
  check(cudaGetLastError(), "launching the copy kernel");
}

void launch_split_copy(cudaStream_t s, const void* src0, void* dst0, const void* src1, void* dst1,
                       const kernel_geometry& g, unsigned loops) {
  GPUBENCH_LAUNCH(split_copy_kernel, g.blocks, g.threads, 0, s, static_cast<const uint4*>(src0),
                  static_cast<uint4*>(dst0), static_cast<const uint4*>(src1),
                  static_cast<uint4*>(dst1), g.elements, loops);
  check(cudaGetLastError(), "launching the bidirectional copy kernel");
}

void launch_fill(cudaStream_t s, void* buf, std::uint64_t words, std::uint32_t seed) {
  GPUBENCH_LAUNCH(fill_kernel, fill_blocks(words), fill_threads, 0, s,
                  static_cast<std::uint32_t*>(buf), words, seed);
  check(cudaGetLastError(), "launching the pattern fill kernel");
}

void launch_check(cudaStream_t s, const void* buf, std::uint64_t words, std::uint32_t seed,
                  unsigned long long* errors) {
  GPUBENCH_LAUNCH(check_kernel, fill_blocks(words), fill_threads, 0, s,
                  static_cast<const std::uint32_t*>(buf), words, seed, errors);
  check(cudaGetLastError(), "launching the pattern check kernel");
}

void launch_chase(cudaStream_t s, const void* start, std::uint64_t loads, void** end) {
  GPUBENCH_LAUNCH(chase_kernel, 1, 1, 0, s, static_cast<const chase_node*>(start), loads, end);
  check(cudaGetLastError(), "launching the pointer-chase kernel");
}

}  // namespace gpubench::benchmarks::gpu::cuda

// The CPU stand-in's cuda_runtime.h: the runtime API, the device-side built-ins the kernels
// use (indices, cache-hinted loads and stores, atomics, clock64, __trap) and GPUBENCH_LAUNCH,
// so benchmarks/gpu/cuda/kernels.cu compiles as C++ and its kernels run on stream threads.
// Each kernel thread runs in turn on its stream's worker thread: the kernels gpubench has use
// no shared memory and no barrier, so running them one after the other is one legal schedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_runtime_api.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline

// What a CUDA thread asks of itself. Per OS thread, as several streams run kernels at once;
// set by the stand-in before each kernel thread runs (kernel_launch.cpp).
inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};
constexpr int warpSize = 32;

namespace gpubench::tests::standin {

// Every device-side load and store through the built-ins below is checked: the address must
// be memory the executing device may touch (its own, a peer's with access enabled, mapped
// pinned host memory). A bad one stops the kernel with cudaErrorIllegalAddress.
void check_device_access(const volatile void* p, std::size_t bytes);
[[noreturn]] void device_trap();
long long device_clock();

// Queues `body` (every thread of the grid, in turn) on `stream`; `pointers` are the kernel's
// pointer arguments, checked as the first access of the kernel when it runs.
void enqueue_kernel(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes,
                    cudaStream_t stream, std::vector<std::uintptr_t> pointers,
                    std::function<void()> body);

template <class Tuple, std::size_t... I>
std::vector<std::uintptr_t> pointer_arguments(const Tuple& t, std::index_sequence<I...>) {
  std::vector<std::uintptr_t> out;
  (
      [&] {
        using element = std::tuple_element_t<I, Tuple>;
        if constexpr (std::is_pointer_v<element>)
          out.push_back(reinterpret_cast<std::uintptr_t>(std::get<I>(t)));
      }(),
      ...);
  return out;
}

template <class... P, class... A>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shared_bytes,
            cudaStream_t stream, A&&... args) {
  // The arguments are copied when the kernel is queued, as a launch copies them.
  std::tuple<std::decay_t<P>...> values(std::forward<A>(args)...);
  auto pointers = pointer_arguments(values, std::index_sequence_for<P...>{});
  enqueue_kernel(reinterpret_cast<const void*>(kernel), grid, block, shared_bytes, stream,
                 std::move(pointers), [kernel, values] { std::apply(kernel, values); });
}

}  // namespace gpubench::tests::standin

#define GPUBENCH_LAUNCH(kernel, grid, block, shared, stream, ...) \
  ::gpubench::tests::standin::launch(kernel, grid, block, shared, stream, __VA_ARGS__)

inline uint4 __ldcg(const uint4* p) {
  gpubench::tests::standin::check_device_access(p, sizeof *p);
  return *p;
}
inline unsigned long long __ldcv(const unsigned long long* p) {
  gpubench::tests::standin::check_device_access(p, sizeof *p);
  return *static_cast<const volatile unsigned long long*>(p);
}
inline void __stcg(uint4* p, uint4 v) {
  gpubench::tests::standin::check_device_access(p, sizeof *p);
  *p = v;
}
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  gpubench::tests::standin::check_device_access(p, sizeof *p);
  return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
// A real clock (nanoseconds; cudaDevAttrClockRate says 1 GHz), so a spin kernel's timeout is
// real time; it yields, so spinning streams leave the host thread a CPU to release them.
inline long long clock64() {
  return gpubench::tests::standin::device_clock();
}
[[noreturn]] inline void __trap() {
  gpubench::tests::standin::device_trap();
}

// Kernels on the stand-in: a launch queues every thread of the grid on the stream's worker;
// each load and store through the device built-ins is checked against the memory table.
#include <chrono>
#include <string>
#include <thread>

#include "cuda_runtime.h"
#include "runtime.hpp"

namespace gpubench::tests::standin {

namespace {

// The allocations a kernel thread touched last: a copy kernel alternates between its source
// and destination, so the table is searched only when an address leaves all of them or the
// table changed.
struct access_cache {
  struct entry {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
  };
  std::uint64_t generation = 0;
  int device = -1;
  entry entries[4];
  unsigned next = 0;
};

thread_local access_cache t_cache;

}  // namespace

void check_device_access(const volatile void* p, std::size_t bytes) {
  runtime* rt = installed_runtime();
  const int d = executing_device();
  if (!rt || d < 0) throw kernel_fault{cudaErrorLaunchFailure, "a device access outside a kernel"};
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uint64_t g = rt->memory().generation();
  if (t_cache.generation != g || t_cache.device != d) t_cache = {g, d, {}, 0};
  for (const auto& e : t_cache.entries)
    if (a >= e.begin && a + bytes <= e.end) return;
  if (const std::string why = rt->access_problem(d, a, bytes); !why.empty())
    throw kernel_fault{cudaErrorIllegalAddress, why};
  const auto r = rt->memory().find(a);
  t_cache.entries[t_cache.next++ % 4] = {r->base, r->base + r->bytes};
}

void device_trap() {
  throw kernel_fault{cudaErrorLaunchFailure, "the kernel called __trap()"};
}

long long device_clock() {
  std::this_thread::yield();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void enqueue_kernel(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes,
                    cudaStream_t stream, std::vector<std::uintptr_t> pointers,
                    std::function<void()> body) {
  runtime* rt = installed_runtime();
  if (!rt) return;  // no device: the launch check that follows reads cudaErrorNoDevice
  const int current = rt->current_device();
  stream_worker* w = rt->worker_of(stream);
  if (!w) {
    rt->fail(cudaErrorInvalidResourceHandle, "kernel launch on no stream");
    return;
  }
  if (w->device() != current) {
    // CUDA: "a kernel launch will fail if it is issued to a stream that is not associated to
    // the current device".
    rt->fail(cudaErrorInvalidResourceHandle, "kernel launched with GPU " + std::to_string(current) +
                                                 " current on a stream of GPU " +
                                                 std::to_string(w->device()));
    return;
  }
  if (rt->device_failed(current)) {
    rt->fail(rt->device_error(current), "kernel launch on a failed device", true);
    return;
  }
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads == 0 || threads > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
      shared_bytes > 48 * 1024) {
    rt->fail(cudaErrorInvalidConfiguration, "kernel launch configuration");
    return;
  }
  if (!rt->kernel_loaded(current, kernel)) {
    // With lazy loading, loading a kernel waits for the device: behind a spin kernel that
    // waits for the host, a deadlock. gpubench loads every kernel first (preload_kernels).
    if (rt->device_busy(current)) {
      rt->fail(cudaErrorNotPermitted,
               "kernel first launched on GPU " + std::to_string(current) +
                   " while work is queued there: with lazy loading its load would wait behind "
                   "that work (load it first with cudaFuncGetAttributes)");
      return;
    }
    rt->load_kernel(current, kernel);
  }
  w->push({op_kind::kernel, 0, [rt, current, grid, block, pointers, body] {
             set_executing_device(current);
             struct reset {
               ~reset() { set_executing_device(-1); }
             } on_exit;
             // A pointer argument is the kernel's first access to its memory.
             for (const std::uintptr_t p : pointers)
               if (p != 0)
                 if (const std::string why = rt->access_problem(current, p, 1); !why.empty())
                   throw kernel_fault{cudaErrorIllegalAddress, "kernel argument: " + why};
             gridDim = grid;
             blockDim = block;
             for (unsigned bz = 0; bz < grid.z; ++bz)
               for (unsigned by = 0; by < grid.y; ++by)
                 for (unsigned bx = 0; bx < grid.x; ++bx)
                   for (unsigned tz = 0; tz < block.z; ++tz)
                     for (unsigned ty = 0; ty < block.y; ++ty)
                       for (unsigned tx = 0; tx < block.x; ++tx) {
                         blockIdx = {bx, by, bz};
                         threadIdx = {tx, ty, tz};
                         body();
                       }
           }});
}

}  // namespace gpubench::tests::standin

cudaError_t gpubench_standin_func_attributes(cudaFuncAttributes* attr, const void* kernel) {
  using namespace gpubench::tests::standin;
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  if (!kernel) return rt->fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes of null");
  rt->load_kernel(d, kernel);
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}

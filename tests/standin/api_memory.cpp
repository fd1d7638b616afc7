// The stand-in's memory calls: device and pinned host memory, and copies and memsets with
// CUDA's rules of who may touch what and when each call returns.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime.hpp"

using gpubench::tests::standin::allocation_record;
using gpubench::tests::standin::installed_runtime;
using gpubench::tests::standin::memory_kind;
using gpubench::tests::standin::op_kind;
using gpubench::tests::standin::runtime;
using gpubench::tests::standin::stream_op;
using gpubench::tests::standin::stream_worker;

namespace {

// Fresh device memory: never what a test expects, and as a pointer an aligned address that
// is no memory at all, so a kernel that follows it faults cleanly.
constexpr unsigned char poison = 0xa0;

void* aligned_block(std::size_t bytes, std::size_t alignment) {
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
}

// Where a copy's operand lies.
struct place {
  bool known = false;   // memory of the stand-in's table (device or pinned host)
  bool device = false;  // device memory
  int owner = -1;
  std::string problem;  // the range does not fit its allocation
};

place locate(const runtime& rt, const void* p, std::size_t n) {
  place out;
  const auto r = rt.memory().find(reinterpret_cast<std::uintptr_t>(p));
  if (!r) return out;
  out.known = true;
  out.device = r->kind == memory_kind::device;
  out.owner = r->device;
  if (!r->contains(reinterpret_cast<std::uintptr_t>(p), n))
    out.problem = std::to_string(n) + " bytes run past the end of their " +
                  gpubench::tests::standin::to_string(r->kind) + " of " + std::to_string(r->bytes) +
                  " bytes";
  return out;
}

std::string kind_problem(cudaMemcpyKind kind, const place& dst, const place& src) {
  const auto want = [&](bool src_device, bool dst_device) -> std::string {
    if (src.device == src_device && dst.device == dst_device) return {};
    return std::string("the copy's kind says ") + (src_device ? "device" : "host") + " to " +
           (dst_device ? "device" : "host") + ", the pointers are " +
           (src.device ? "device" : "host") + " to " + (dst.device ? "device" : "host");
  };
  switch (kind) {
    case cudaMemcpyHostToHost:
      return want(false, false);
    case cudaMemcpyHostToDevice:
      return want(false, true);
    case cudaMemcpyDeviceToHost:
      return want(true, false);
    case cudaMemcpyDeviceToDevice:
      return want(true, true);
    case cudaMemcpyDefault:
      return {};
  }
  return "unknown cudaMemcpyKind " + std::to_string(static_cast<int>(kind));
}

stream_op copy_op(void* dst, const void* src, std::size_t n) {
  return {op_kind::copy, n, [dst, src, n] { std::memcpy(dst, src, n); }};
}

// cudaMemcpy (sync_call) and cudaMemcpyAsync: when each returns is CUDA's documented
// behaviour ("API synchronization behavior"): from pageable memory the bytes are staged and
// the call returns before they land (here they land when the host synchronises with the
// stream, the latest moment CUDA allows, or after config().pageable_landing); to pageable
// memory it returns once they have; a synchronous call with pinned memory waits; device to
// device never waits.
cudaError_t copy(runtime& rt, void* dst, const void* src, std::size_t n, cudaMemcpyKind kind,
                 stream_worker* w, bool sync_call, const char* call) {
  if (!w) return rt.fail(cudaErrorInvalidResourceHandle, std::string(call) + ": not a stream");
  if (rt.device_failed(w->device())) return rt.fail(rt.device_error(w->device()), call, true);
  if (n == 0) return cudaSuccess;
  const place d = locate(rt, dst, n);
  const place s = locate(rt, src, n);
  for (const auto* p : {&d, &s})
    if (!p->problem.empty()) return rt.fail(cudaErrorInvalidValue, call + (": " + p->problem));
  if (const auto why = kind_problem(kind, d, s); !why.empty())
    return rt.fail(cudaErrorInvalidValue, call + (": " + why));
  if (!s.known && d.device) {
    if (sync_call) w->synchronize();
    auto staged = std::make_shared<std::vector<unsigned char>>(
        static_cast<const unsigned char*>(src), static_cast<const unsigned char*>(src) + n);
    const auto longest = rt.config().pageable_landing;
    w->push({op_kind::copy, n, [w, dst, staged, longest] {
               w->hold_until_synchronized(longest);
               std::memcpy(dst, staged->data(), staged->size());
             }});
    return cudaSuccess;
  }
  w->push(copy_op(dst, src, n));
  const bool to_pageable = !d.known;
  if (to_pageable || (sync_call && !(d.device && s.device))) w->synchronize();
  return cudaSuccess;
}

cudaError_t memset_on(runtime& rt, void* p, int value, std::size_t n, stream_worker* w,
                      const char* call) {
  if (!w) return rt.fail(cudaErrorInvalidResourceHandle, std::string(call) + ": not a stream");
  if (rt.device_failed(w->device())) return rt.fail(rt.device_error(w->device()), call, true);
  const place d = locate(rt, p, n);
  if (!d.device || !d.problem.empty())
    return rt.fail(cudaErrorInvalidValue, call + std::string(": not device memory") +
                                              (d.problem.empty() ? "" : ", ") + d.problem);
  w->push({op_kind::memset, n, [p, value, n] { std::memset(p, value, n); }});
  return cudaSuccess;
}

}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t size) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  if (rt->device_failed(d)) return rt->fail(rt->device_error(d), "cudaMalloc", true);
  void* p = aligned_block(size, 256);
  if (!p) return rt->fail(cudaErrorMemoryAllocation, "cudaMalloc of " + std::to_string(size));
  std::memset(p, poison, size);
  rt->memory().add({reinterpret_cast<std::uintptr_t>(p), size, memory_kind::device, d});
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!ptr) return cudaSuccess;
  const auto r = rt->memory().find(reinterpret_cast<std::uintptr_t>(ptr));
  if (!r || r->kind != memory_kind::device || r->base != reinterpret_cast<std::uintptr_t>(ptr))
    return rt->fail(cudaErrorInvalidValue, "cudaFree of a pointer cudaMalloc did not return");
  // cudaFree waits for the device's work, as CUDA's does.
  rt->synchronize_device(r->device);
  rt->memory().remove(r->base, memory_kind::device, memory_kind::device);
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostAlloc(void** ptr, std::size_t size, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  constexpr unsigned known = cudaHostAllocPortable | cudaHostAllocMapped;
  if (flags & ~known)
    return rt->fail(cudaErrorNotSupported, "cudaHostAlloc flags " + std::to_string(flags) +
                                               ": only Portable and Mapped "
                                               "are implemented by the stand-in");
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  void* p = aligned_block(size, 4096);
  if (!p) return rt->fail(cudaErrorMemoryAllocation, "cudaHostAlloc of " + std::to_string(size));
  rt->memory().add({reinterpret_cast<std::uintptr_t>(p), size, memory_kind::host_alloc, d,
                    (flags & cudaHostAllocPortable) != 0, (flags & cudaHostAllocMapped) != 0});
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->memory().remove(reinterpret_cast<std::uintptr_t>(ptr), memory_kind::host_alloc,
                           memory_kind::host_alloc))
    return rt->fail(cudaErrorInvalidValue,
                    "cudaFreeHost of memory cudaHostAlloc did not return (registered memory "
                    "is released with cudaHostUnregister)");
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, std::size_t size, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  constexpr unsigned known = cudaHostRegisterPortable | cudaHostRegisterMapped;
  if (flags & ~known)
    return rt->fail(cudaErrorNotSupported,
                    "cudaHostRegister flags " + std::to_string(flags) +
                        ": only Portable and Mapped are implemented by the stand-in");
  if (!ptr || size == 0) return rt->fail(cudaErrorInvalidValue, "cudaHostRegister of nothing");
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  const auto base = reinterpret_cast<std::uintptr_t>(ptr);
  if (rt->memory().overlaps_host(base, size))
    return rt->fail(cudaErrorHostMemoryAlreadyRegistered, "cudaHostRegister");
  if (rt->memory().find(base))
    return rt->fail(cudaErrorInvalidValue, "cudaHostRegister of device memory");
  rt->memory().add({base, size, memory_kind::host_registered, d,
                    (flags & cudaHostRegisterPortable) != 0,
                    (flags & cudaHostRegisterMapped) != 0});
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->memory().remove(reinterpret_cast<std::uintptr_t>(ptr), memory_kind::host_registered,
                           memory_kind::host_registered))
    return rt->fail(cudaErrorHostMemoryNotRegistered, "cudaHostUnregister");
  return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  if (flags != 0) return rt->fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer: flags");
  const auto r = rt->memory().find(reinterpret_cast<std::uintptr_t>(host_ptr));
  if (!r || r->kind == memory_kind::device)
    return rt->fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer of memory not pinned");
  if (!r->mapped)
    return rt->fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer of memory not mapped");
  if (!r->portable && r->device != d)
    return rt->fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer on GPU " + std::to_string(d) +
                                               " of memory pinned in GPU " +
                                               std::to_string(r->device) +
                                               "'s context, not portable");
  *device_ptr = host_ptr;  // unified addressing: the same address on the host and every GPU
  return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t count) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (const cudaError_t ctx = rt->open_context(rt->current_device()); ctx != cudaSuccess)
    return ctx;
  return memset_on(*rt, ptr, value, count, rt->worker_of(nullptr), "cudaMemset");
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t count, cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  return memset_on(*rt, ptr, value, count, rt->worker_of(stream), "cudaMemsetAsync");
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (const cudaError_t ctx = rt->open_context(rt->current_device()); ctx != cudaSuccess)
    return ctx;
  return copy(*rt, dst, src, count, kind, rt->worker_of(nullptr), true, "cudaMemcpy");
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  return copy(*rt, dst, src, count, kind, rt->worker_of(stream), false, "cudaMemcpyAsync");
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                std::size_t count, cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const auto d = locate(*rt, dst, count);
  const auto s = locate(*rt, src, count);
  if (!d.device || d.owner != dst_device || !s.device || s.owner != src_device)
    return rt->fail(cudaErrorInvalidValue, "cudaMemcpyPeerAsync: the destination must be GPU " +
                                               std::to_string(dst_device) +
                                               "'s memory and the source GPU " +
                                               std::to_string(src_device) + "'s");
  return copy(*rt, dst, src, count, cudaMemcpyDeviceToDevice, rt->worker_of(stream), false,
              "cudaMemcpyPeerAsync");
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  *attributes = cudaPointerAttributes{};
  const auto r = rt->memory().find(reinterpret_cast<std::uintptr_t>(ptr));
  if (!r) return cudaSuccess;  // unregistered host memory (CUDA 11 on: not an error)
  attributes->type = r->kind == memory_kind::device ? cudaMemoryTypeDevice : cudaMemoryTypeHost;
  attributes->device = r->device;
  attributes->devicePointer = const_cast<void*>(ptr);
  attributes->hostPointer = r->kind == memory_kind::device ? nullptr : const_cast<void*>(ptr);
  return cudaSuccess;
}

int gpubench_standin_access_problem(int device, const void* ptr, std::size_t bytes, char* why,
                                    std::size_t len) {
  runtime* rt = installed_runtime();
  const std::string problem =
      !rt ? std::string("no stand-in machine")
          : rt->access_problem(device, reinterpret_cast<std::uintptr_t>(ptr), bytes);
  if (problem.empty()) return 0;
  if (len > 0) std::snprintf(why, len, "%s", problem.c_str());
  return 1;
}

// The driver API entry points the stand-in hands out through cudaGetDriverEntryPointByVersion:
// what the RDMA code's GPU memory asks (DMA-BUF support and the DMA-BUF export of a range).
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "cuda.h"
#include "runtime.hpp"

using gpubench::tests::standin::installed_runtime;
using gpubench::tests::standin::memory_kind;
using gpubench::tests::standin::runtime;

namespace {

CUresult device_attribute(int* value, CUdevice_attribute attr, CUdevice device) {
  runtime* rt = installed_runtime();
  if (!rt || !rt->valid_device(device)) return CUDA_ERROR_INVALID_DEVICE;
  if (attr != CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED) return CUDA_ERROR_NOT_SUPPORTED;
  *value = rt->config().dmabuf ? 1 : 0;
  return CUDA_SUCCESS;
}

// A DMA-BUF file of the range: an anonymous file here (no device to share the pages with), so
// the caller's close is checked as it would be on a GPU. The range must lie in one device
// allocation and start and end on host pages, as the driver demands.
CUresult handle_for_range(void* handle, CUdeviceptr base, std::size_t size,
                          CUmemRangeHandleType type, unsigned long long flags) {
  runtime* rt = installed_runtime();
  if (!rt || !rt->config().dmabuf) return CUDA_ERROR_NOT_SUPPORTED;
  const auto page = static_cast<CUdeviceptr>(::sysconf(_SC_PAGESIZE));
  const auto r = rt->memory().find(static_cast<std::uintptr_t>(base));
  if (type != CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD || flags != 0 || base % page != 0 ||
      size % page != 0 || !r || r->kind != memory_kind::device ||
      !r->contains(static_cast<std::uintptr_t>(base), size)) {
    rt->fail(cudaErrorInvalidValue, "cuMemGetHandleForAddressRange of " + std::to_string(size) +
                                        " bytes: not whole pages of one device allocation");
    return CUDA_ERROR_INVALID_VALUE;
  }
  const int fd = ::memfd_create("gpubench-standin-dmabuf", MFD_CLOEXEC);
  if (fd < 0) return CUDA_ERROR_NOT_SUPPORTED;
  std::memcpy(handle, &fd, sizeof fd);
  return CUDA_SUCCESS;
}

}  // namespace

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned int version,
                                             unsigned long long flags,
                                             cudaDriverEntryPointQueryResult* status) {
  *fn = nullptr;
  if (flags != cudaEnableDefault) return cudaErrorInvalidValue;
  const std::string name = symbol ? symbol : "";
  // The versions of the signatures these functions have had since they appeared.
  if (name == "cuDeviceGetAttribute" && version >= 2000)
    *fn = reinterpret_cast<void*>(&device_attribute);
  else if (name == "cuMemGetHandleForAddressRange" && version >= 11070)
    *fn = reinterpret_cast<void*>(&handle_for_range);
  if (status) *status = *fn ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}

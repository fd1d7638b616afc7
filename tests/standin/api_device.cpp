// The stand-in's device, error and peer-access calls.
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime.hpp"

using gpubench::tests::standin::installed_runtime;
using gpubench::tests::standin::runtime;

namespace {

std::string gpu(int d) {
  return "GPU " + std::to_string(d);
}

}  // namespace

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define GPUBENCH_STANDIN_NAME(x) \
  case x:                        \
    return #x;
    GPUBENCH_STANDIN_NAME(cudaSuccess)
    GPUBENCH_STANDIN_NAME(cudaErrorInvalidValue)
    GPUBENCH_STANDIN_NAME(cudaErrorMemoryAllocation)
    GPUBENCH_STANDIN_NAME(cudaErrorInitializationError)
    GPUBENCH_STANDIN_NAME(cudaErrorInvalidConfiguration)
    GPUBENCH_STANDIN_NAME(cudaErrorInsufficientDriver)
    GPUBENCH_STANDIN_NAME(cudaErrorDevicesUnavailable)
    GPUBENCH_STANDIN_NAME(cudaErrorInvalidDeviceFunction)
    GPUBENCH_STANDIN_NAME(cudaErrorNoDevice)
    GPUBENCH_STANDIN_NAME(cudaErrorInvalidDevice)
    GPUBENCH_STANDIN_NAME(cudaErrorPeerAccessUnsupported)
    GPUBENCH_STANDIN_NAME(cudaErrorInvalidResourceHandle)
    GPUBENCH_STANDIN_NAME(cudaErrorNotReady)
    GPUBENCH_STANDIN_NAME(cudaErrorIllegalAddress)
    GPUBENCH_STANDIN_NAME(cudaErrorPeerAccessAlreadyEnabled)
    GPUBENCH_STANDIN_NAME(cudaErrorPeerAccessNotEnabled)
    GPUBENCH_STANDIN_NAME(cudaErrorHostMemoryAlreadyRegistered)
    GPUBENCH_STANDIN_NAME(cudaErrorHostMemoryNotRegistered)
    GPUBENCH_STANDIN_NAME(cudaErrorLaunchFailure)
    GPUBENCH_STANDIN_NAME(cudaErrorNotPermitted)
    GPUBENCH_STANDIN_NAME(cudaErrorNotSupported)
    GPUBENCH_STANDIN_NAME(cudaErrorUnknown)
#undef GPUBENCH_STANDIN_NAME
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected";
    case cudaErrorIllegalAddress:
      return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle:
      return "invalid resource handle";
    case cudaErrorNotReady:
      return "device not ready";
    case cudaErrorNotSupported:
      return "operation not supported";
    case cudaErrorDevicesUnavailable:
      return "CUDA-capable device(s) is/are busy or unavailable";
    default:
      return "CUDA stand-in error";
  }
}

cudaError_t cudaGetLastError() {
  runtime* rt = installed_runtime();
  return rt ? rt->take_last_error() : cudaSuccess;
}

cudaError_t cudaPeekAtLastError() {
  runtime* rt = installed_runtime();
  return rt ? rt->peek_last_error() : cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
  runtime* rt = installed_runtime();
  *count = rt ? rt->config().devices : 0;
  return *count > 0 ? cudaSuccess : cudaErrorNoDevice;
}

cudaError_t cudaGetDevice(int* device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  *device = rt->current_device();
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_device(device))
    return rt->fail(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) + ")");
  rt->set_current_device(device);
  // Since CUDA 12 cudaSetDevice initialises the device's primary context.
  if (const cudaError_t ctx = rt->open_context(device); ctx != cudaSuccess) return ctx;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  rt->synchronize_device(d);
  return rt->device_failed(d)
             ? rt->fail(rt->device_error(d), "cudaDeviceSynchronize on " + gpu(d), true)
             : cudaSuccess;
}

cudaError_t cudaDeviceReset() {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  rt->reset_device(rt->current_device());
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  *version = installed_runtime() ? CUDART_VERSION : 0;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_device(device))
    return rt->fail(cudaErrorInvalidDevice, "cudaGetDeviceProperties of " + gpu(device));
  *prop = cudaDeviceProp{};
  // The name says what it is wherever it is printed: no figure from it is a GPU's.
  const int physical = rt->config().physical_of(device);
  std::snprintf(prop->name, sizeof prop->name, "CPU stand-in GPU %d (not a GPU measurement)",
                physical);
  for (std::size_t i = 0; i < sizeof prop->uuid.bytes; ++i)
    prop->uuid.bytes[i] = static_cast<char>(i == 15 ? physical : 0x5a);
  prop->totalGlobalMem = std::size_t{1} << 30;
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = rt->config().sm_count;
  prop->pciDomainID = 0;
  prop->pciBusID = 0x40 + physical;
  prop->pciDeviceID = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_device(device))
    return rt->fail(cudaErrorInvalidDevice, "cudaDeviceGetAttribute of " + gpu(device));
  switch (attr) {
    case cudaDevAttrClockRate:
      *value = 1'000'000;
      return cudaSuccess;  // kHz: clock64 is ns
    case cudaDevAttrMultiProcessorCount:
      *value = rt->config().sm_count;
      return cudaSuccess;
    case cudaDevAttrHostNumaId:
      *value = rt->config().numa_of(device);
      return cudaSuccess;
    case cudaDevAttrComputeMode:
      *value = rt->config().mode == gpubench::tests::standin::compute_mode::exclusive_process
                   ? cudaComputeModeExclusiveProcess
                   : cudaComputeModeDefault;
      return cudaSuccess;
  }
  return rt->fail(cudaErrorNotSupported, "device attribute " +
                                             std::to_string(static_cast<int>(attr)) +
                                             " is not implemented by the stand-in");
}

cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int len, int device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_device(device) || len < 13)
    return rt->fail(cudaErrorInvalidValue, "cudaDeviceGetPCIBusId of " + gpu(device));
  std::snprintf(bus_id, static_cast<std::size_t>(len), "0000:%02x:00.0",
                0x40 + rt->config().physical_of(device));
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_device(device) || !rt->valid_device(peer_device))
    return rt->fail(cudaErrorInvalidDevice,
                    "cudaDeviceCanAccessPeer(" + gpu(device) + ", " + gpu(peer_device) + ")");
  *can_access = rt->config().peers(device, peer_device) ? 1 : 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int src, int dst) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_device(src) || !rt->valid_device(dst) || src == dst)
    return rt->fail(cudaErrorInvalidDevice,
                    "cudaDeviceGetP2PAttribute(" + gpu(src) + ", " + gpu(dst) + ")");
  const bool peers = rt->config().peers(src, dst);
  switch (attr) {
    case cudaDevP2PAttrPerformanceRank:
      *value = 0;
      return cudaSuccess;
    case cudaDevP2PAttrAccessSupported:
      *value = peers ? 1 : 0;
      return cudaSuccess;
    case cudaDevP2PAttrNativeAtomicSupported:
      *value = peers ? 1 : 0;
      return cudaSuccess;
  }
  return rt->fail(cudaErrorNotSupported, "P2P attribute " + std::to_string(static_cast<int>(attr)) +
                                             " is not implemented by the stand-in");
}

cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  const std::string what = "enabling peer access " + gpu(d) + " -> " + gpu(peer_device);
  if (flags != 0) return rt->fail(cudaErrorInvalidValue, what + ": flags must be 0");
  if (!rt->valid_device(peer_device) || peer_device == d)
    return rt->fail(cudaErrorInvalidDevice, what);
  if (!rt->config().peers(d, peer_device))
    return rt->fail(cudaErrorPeerAccessUnsupported, what + ": the pair has no P2P path");
  if (rt->peer_enabled(d, peer_device))
    return rt->fail(cudaErrorPeerAccessAlreadyEnabled, what, true);
  rt->set_peer_enabled(d, peer_device, true);
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer_device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  const std::string what = "disabling peer access " + gpu(d) + " -> " + gpu(peer_device);
  if (!rt->valid_device(peer_device) || peer_device == d)
    return rt->fail(cudaErrorInvalidDevice, what);
  if (!rt->peer_enabled(d, peer_device)) return rt->fail(cudaErrorPeerAccessNotEnabled, what, true);
  rt->set_peer_enabled(d, peer_device, false);
  return cudaSuccess;
}

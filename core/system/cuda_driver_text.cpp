#include "core/system/cuda_driver_text.hpp"

namespace gpubench::core {

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string driver_too_old_reason(int driver_version, int runtime_version) {
  std::string driver =
      driver_version > 0 ? "CUDA " + cuda_version_text(driver_version) : "an unknown CUDA version";
  return "the NVIDIA driver supports " + driver + " but gpubench was built with the CUDA " +
         cuda_version_text(runtime_version) +
         " runtime: update the driver, or rebuild with CUDA_HOME pointing at a toolkit no newer "
         "than " +
         (driver_version > 0 ? "CUDA " + cuda_version_text(driver_version)
                             : std::string("the driver's CUDA version (nvidia-smi shows it)")) +
         " and CUDAHOSTCXX naming a host compiler that toolkit accepts (CUDA 11.8: GCC 11 or "
         "older)";
}

std::string cuda_device_error_reason(bool insufficient_driver, std::optional<int> driver_version,
                                     int runtime_version, const std::string& runtime_text) {
  if (!insufficient_driver || !driver_version) return runtime_text;
  // The runtime loads the driver's library itself and reports version 0 when it found none.
  if (*driver_version <= 0) return "no NVIDIA driver (libcuda.so.1 not found)";
  return driver_too_old_reason(*driver_version, runtime_version);
}

}  // namespace gpubench::core

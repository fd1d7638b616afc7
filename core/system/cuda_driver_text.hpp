// What a user reads when CUDA cannot be used on this host: one wording for every family that
// asks CUDA for its devices (the gpu.* cases, NCCL collectives), built from plain numbers so
// it is tested without a GPU.
#pragma once

#include <optional>
#include <string>

namespace gpubench::core {

// "12.2" from CUDA's 12020.
std::string cuda_version_text(int version);

// The reason when the NVIDIA driver is older than the CUDA runtime linked into gpubench:
// both versions and what to do.
std::string driver_too_old_reason(int driver_version, int runtime_version);

// The reason when cudaGetDeviceCount failed. `insufficient_driver`: it said
// cudaErrorInsufficientDriver; `driver_version`: what cudaDriverGetVersion gave (0 when the
// runtime found no driver library, unset when it failed too); `runtime_text`: CUDA's own
// error text, used where the versions do not tell more. CUDA says "driver version is
// insufficient" both when the driver is old and when there is none at all.
std::string cuda_device_error_reason(bool insufficient_driver, std::optional<int> driver_version,
                                     int runtime_version, const std::string& runtime_text);

}  // namespace gpubench::core

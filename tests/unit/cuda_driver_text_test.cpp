// The reasons a CUDA-using case gives when CUDA cannot start: the same words for the gpu.*
// cases, NCCL collectives and GPU memory for RDMA.
#include <gtest/gtest.h>

#include "core/system/cuda_driver_text.hpp"

namespace gpubench::core {
namespace {

TEST(CudaDriverText, OldDriverReasonNamesBothVersionsAndTheFix) {
  const std::string why = driver_too_old_reason(12020, 13000);
  EXPECT_NE(why.find("CUDA 12.2"), std::string::npos) << why;
  EXPECT_NE(why.find("CUDA 13.0 runtime"), std::string::npos) << why;
  EXPECT_NE(why.find("rebuild with CUDA_HOME pointing at a toolkit no newer than CUDA 12.2"),
            std::string::npos)
      << why;
}

TEST(CudaDriverText, InsufficientDriverWithAVersionIsAnOldDriver) {
  const std::string runtime = "CUDA driver version is insufficient for CUDA runtime version";
  EXPECT_EQ(cuda_device_error_reason(true, 12020, 13000, runtime),
            driver_too_old_reason(12020, 13000));
}

TEST(CudaDriverText, InsufficientDriverWithoutADriverSaysThereIsNone) {
  const std::string runtime = "CUDA driver version is insufficient for CUDA runtime version";
  const std::string why = cuda_device_error_reason(true, 0, 13000, runtime);
  EXPECT_EQ(why, "no NVIDIA driver (libcuda.so.1 not found)");
  EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
}

TEST(CudaDriverText, OtherErrorsKeepCudasOwnText) {
  EXPECT_EQ(cuda_device_error_reason(false, 12020, 13000, "no CUDA-capable device is detected"),
            "no CUDA-capable device is detected");
  // The driver version unknown: nothing better to say than CUDA's text.
  EXPECT_EQ(cuda_device_error_reason(true, std::nullopt, 13000, "insufficient"), "insufficient");
}

TEST(CudaDriverText, VersionText) {
  EXPECT_EQ(cuda_version_text(11080), "11.8");
  EXPECT_EQ(cuda_version_text(13000), "13.0");
  EXPECT_EQ(cuda_version_text(12090), "12.9");
}

}  // namespace
}  // namespace gpubench::core

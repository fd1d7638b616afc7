// The stand-in's compute modes and what standin_gpubench reads from its environment: under
// EXCLUSIVE_PROCESS a GPU whose context another process holds refuses cudaSetDevice, and
// cudaDeviceReset gives a context back; CUDA_VISIBLE_DEVICES renumbers the physical GPUs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "environment.hpp"
#include "machine.hpp"

namespace gpubench::tests::standin {
namespace {

// A lock file of the simulated node, held as another process's context would hold it.
class other_process_context {
 public:
  other_process_context(const std::string& dir, int gpu)
      : m_fd(::open((dir + "/gpu" + std::to_string(gpu) + ".context").c_str(),
                    O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {}
  ~other_process_context() {
    if (m_fd >= 0) ::close(m_fd);
  }
  other_process_context(const other_process_context&) = delete;
  other_process_context& operator=(const other_process_context&) = delete;
  bool take() { return m_fd >= 0 && ::flock(m_fd, LOCK_EX | LOCK_NB) == 0; }

 private:
  int m_fd;
};

std::string node_dir() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpubench-standin-node-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(StandinComputeMode, ExclusiveProcessRefusesAGpuHeldElsewhereUntilReset) {
  const std::string dir = node_dir();
  machine_config c;
  c.mode = compute_mode::exclusive_process;
  c.node_dir = dir;
  {
    machine m(c);
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    other_process_context other0(dir, 0);
    EXPECT_FALSE(other0.take()) << "this process holds GPU 0's context";
    other_process_context other1(dir, 1);
    ASSERT_TRUE(other1.take());
    EXPECT_EQ(cudaSetDevice(1), cudaErrorDevicesUnavailable);
    EXPECT_EQ(cudaGetLastError(), cudaErrorDevicesUnavailable);
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
    EXPECT_TRUE(other0.take()) << "cudaDeviceReset gave GPU 0's context back";
    int mode = -1;
    ASSERT_EQ(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0), cudaSuccess);
    EXPECT_EQ(mode, cudaComputeModeExclusiveProcess);
  }
  std::filesystem::remove_all(dir);
}

TEST(StandinComputeMode, ResetFreesTheDevicesMemoryAndStreams) {
  machine m;
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  void* p = nullptr;
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 4096), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_TRUE(m.leaks().empty()) << m.leaks().front();
  EXPECT_EQ(cudaStreamQuery(s), cudaErrorInvalidResourceHandle) << "the stream went with it";
  cudaGetLastError();
}

// The variables a test sets, unset again however it ends (the stand-in would otherwise make
// a machine of them at the next CUDA call of another test).
struct environment_guard {
  ~environment_guard() {
    for (const char* v : {"GPUBENCH_STANDIN_GPUS", "CUDA_VISIBLE_DEVICES",
                          "GPUBENCH_STANDIN_COMPUTE_MODE", "GPUBENCH_STANDIN_NODE_DIR"})
      ::unsetenv(v);
  }
};

TEST(StandinEnvironment, VisibleDevicesRenumberThePhysicalGpus) {
  const environment_guard guard;
  ::setenv("GPUBENCH_STANDIN_GPUS", "4", 1);
  ::setenv("CUDA_VISIBLE_DEVICES", "3,1,9,0", 1);
  ::unsetenv("GPUBENCH_STANDIN_COMPUTE_MODE");
  const auto c = config_from_environment();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->devices, 2) << "as CUDA, the list ends at the first GPU that does not exist";
  EXPECT_EQ(c->physical_of(0), 3);
  EXPECT_EQ(c->physical_of(1), 1);
  ::setenv("GPUBENCH_STANDIN_COMPUTE_MODE", "exclusive_process", 1);
  ::unsetenv("GPUBENCH_STANDIN_NODE_DIR");
  EXPECT_THROW(config_from_environment(), std::invalid_argument) << "needs the node's folder";
  ::unsetenv("GPUBENCH_STANDIN_GPUS");
  EXPECT_FALSE(config_from_environment()) << "no GPUBENCH_STANDIN_GPUS: no machine";
}

}  // namespace
}  // namespace gpubench::tests::standin

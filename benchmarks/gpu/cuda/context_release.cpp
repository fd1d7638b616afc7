#include "benchmarks/gpu/cuda/context_release.hpp"

#include <cuda_runtime_api.h>

#include <utility>

#include "benchmarks/gpu/cuda/cuda_check.hpp"

namespace gpubench::benchmarks::gpu::cuda {

namespace {

class releasing_job final : public copy_job {
 public:
  releasing_job(std::unique_ptr<copy_job> job, std::vector<int> devices)
      : m_job(std::move(job)), m_devices(std::move(devices)) {}
  ~releasing_job() override {
    m_job.reset();  // its streams, events and memory first, on their own devices
    for (const int d : m_devices) {
      select_device_quietly(d);
      if (cudaDeviceReset() != cudaSuccess) cudaGetLastError();
    }
  }
  releasing_job(const releasing_job&) = delete;
  releasing_job& operator=(const releasing_job&) = delete;

  core::sample_spec prepare(std::uint64_t bytes) override { return m_job->prepare(bytes); }
  core::timer& timer() override { return m_job->timer(); }
  void enqueue() override { m_job->enqueue(); }
  void verify() override { m_job->verify(); }
  nlohmann::json context() const override { return m_job->context(); }
  nlohmann::json point_extra(std::size_t warmup) const override {
    return m_job->point_extra(warmup);
  }

 private:
  std::unique_ptr<copy_job> m_job;
  std::vector<int> m_devices;
};

}  // namespace

std::unique_ptr<copy_job> releasing_contexts(std::unique_ptr<copy_job> job,
                                             std::vector<int> devices) {
  return std::make_unique<releasing_job>(std::move(job), std::move(devices));
}

}  // namespace gpubench::benchmarks::gpu::cuda

// The GPU backend of a CUDA build: devices and pairs from the CUDA runtime (linked
// statically) and NVML (loaded at run time), and the copy and latency jobs.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/gpu/cuda/context_release.hpp"
#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/jobs.hpp"
#include "benchmarks/gpu/cuda/nvml.hpp"
#include "benchmarks/gpu/gpu_backend.hpp"
#include "benchmarks/gpu/launch_checks.hpp"
#include "benchmarks/gpu/pci_gpus.hpp"
#include "core/system/cuda_driver_text.hpp"

namespace gpubench::benchmarks::gpu::cuda {

namespace {

class cuda_backend final : public backend {
 public:
  cuda_backend() {
    const cudaError_t e = cudaGetDeviceCount(&m_count);
    if (e != cudaSuccess) {
      m_count = 0;
      int driver = 0;
      const bool known = cudaDriverGetVersion(&driver) == cudaSuccess;
      m_error = core::cuda_device_error_reason(e == cudaErrorInsufficientDriver,
                                               known ? std::optional<int>(driver) : std::nullopt,
                                               CUDART_VERSION, cuda::error_text(e));
      cudaGetLastError();
    } else if (m_count == 0) {
      m_error = "no CUDA-capable device is detected";
    }
    m_nvml = cuda::nvml_library::open(m_nvml_error);
  }

  core::requirement_status status() const override {
    if (m_count > 0) return core::requirement_status::ok();
    return core::requirement_status::missing("needs a CUDA device: " + m_error);
  }

  int device_count() const override { return m_count; }

  device_facts device(int index) const override {
    cudaDeviceProp p{};
    cuda::check(cudaGetDeviceProperties(&p, index),
                "reading the properties of GPU " + std::to_string(index));
    device_facts f;
    f.index = index;
    f.name = p.name;
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", static_cast<unsigned>(p.pciDomainID),
                  static_cast<unsigned>(p.pciBusID), static_cast<unsigned>(p.pciDeviceID));
    f.pci_bus_id = normalize_bus_id(bus);
    char uuid[64];
    const auto* u = reinterpret_cast<const unsigned char*>(p.uuid.bytes);
    std::snprintf(uuid, sizeof uuid,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                  u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                  u[14], u[15]);
    f.uuid = uuid;
    f.cc_major = p.major;
    f.cc_minor = p.minor;
    f.sm_count = p.multiProcessorCount;
    f.memory_bytes = p.totalGlobalMem;
#if CUDART_VERSION >= 12020
    // CUDA 12.2 added the attribute; older toolkits leave host_numa to sysfs (topology).
    int numa = -1;
    if (cudaDeviceGetAttribute(&numa, cudaDevAttrHostNumaId, index) == cudaSuccess && numa >= 0)
      f.host_numa = numa;
    cudaGetLastError();
#endif
    if (m_nvml) {
      f.mig_mode = m_nvml->mig_mode(f.pci_bus_id);
      f.virtualization = m_nvml->virtualization_mode(f.pci_bus_id);
    }
    return f;
  }

  pair_facts pair(int a, int b) const override {
    pair_facts f;
    int can = 0;
    cuda::check(cudaDeviceCanAccessPeer(&can, a, b),
                "asking whether GPU " + std::to_string(a) + " can access GPU " + std::to_string(b));
    f.can_access_peer = can != 0;
    int rank = 0;
    if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
      f.performance_rank = rank;
    cudaGetLastError();
    if (m_nvml) {
      std::vector<std::string> gpus;
      for (int i = 0; i < m_count; ++i)
        gpus.push_back(device(i).pci_bus_id);
      f.nvlink_links = m_nvml->nvlink_links(device(a).pci_bus_id, device(b).pci_bus_id, gpus);
    }
    return f;
  }

  nlohmann::json software() const override {
    nlohmann::json j = nlohmann::json::object();
    int v = 0;
    // Without a driver this is 0: say so rather than print "0.0".
    if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0)
      j["cuda_driver"] = core::cuda_version_text(v);
    else
      j["cuda_driver"] = nullptr;
    if (cudaRuntimeGetVersion(&v) == cudaSuccess) j["cuda_runtime"] = core::cuda_version_text(v);
    if (m_nvml)
      if (auto d = m_nvml->driver_version()) j["nvidia_driver"] = *d;
    return j;
  }

  std::vector<std::string> notes() const override {
    std::vector<std::string> n;
    if (m_count == 0) n.push_back("CUDA: " + m_error);
    if (!m_nvml)
      n.push_back(m_nvml_error + "; NVLink links, MIG and virtualization mode are unknown");
    return n;
  }

  // Each job gives its GPUs' contexts back when it ends (context_release.hpp).
  std::unique_ptr<copy_job> host_copy(const host_copy_request& r) override {
    return releasing_contexts(cuda::make_host_copy_job(r), r.gpus);
  }
  std::unique_ptr<copy_job> p2p_copy(const p2p_copy_request& r) override {
    return releasing_contexts(cuda::make_p2p_copy_job(r), {r.src, r.dst});
  }
  std::unique_ptr<copy_job> latency(const latency_request& r) override {
    std::vector<int> devices{r.gpu};
    if (r.peer && *r.peer != r.gpu) devices.push_back(*r.peer);
    return releasing_contexts(cuda::make_latency_job(r), devices);
  }

 private:
  int m_count = 0;
  std::string m_error;
  std::unique_ptr<cuda::nvml_library> m_nvml;
  std::string m_nvml_error;
};

}  // namespace

}  // namespace gpubench::benchmarks::gpu::cuda

// The backend factory of a CUDA build (backend_none.cpp is the one of a build without CUDA).
std::unique_ptr<gpubench::benchmarks::gpu::backend> gpubench::benchmarks::gpu::make_backend() {
  return std::make_unique<cuda::cuda_backend>();
}

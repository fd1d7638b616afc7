// GPU memory for GPUDirect RDMA: cudaMalloc'd, registered through DMA-BUF when the GPU and
// driver offer it, else with ibv_reg_mr on the device pointer (needs nvidia-peermem).
// The driver API is reached through cudaGetDriverEntryPoint(ByVersion), so the binary still
// links only the static CUDA runtime and starts on hosts without libcuda.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/system/cuda_driver_text.hpp"
#include "transports/rdma/dmabuf_range.hpp"
#include "transports/rdma/rdma_memory.hpp"

namespace gpubench::transports::rdma {

namespace {

using get_attribute_fn = CUresult (*)(int*, CUdevice_attribute, CUdevice);
using get_handle_fn = CUresult (*)(void*, CUdeviceptr, size_t, CUmemRangeHandleType,
                                   unsigned long long);

std::string cuda_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

template <typename F>
F driver_entry(const char* symbol, unsigned version) {
  void* fn = nullptr;
#if CUDART_VERSION >= 12050
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &status) !=
          cudaSuccess ||
      status != cudaDriverEntryPointSuccess)
    return nullptr;
#else
  // Toolkits before 12.5 (CUDA 11.8 among them) have only the lookup of the symbol's version
  // that matches the runtime; both symbols used here kept their signature since 11.7.
  (void)version;
  if (cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault) != cudaSuccess || !fn) return nullptr;
#endif
  return reinterpret_cast<F>(fn);
}

// GPUDirect registration works on whole GPU pages.
constexpr std::size_t gpu_page = 64 * 1024;

class cuda_memory final : public rdma_memory {
 public:
  cuda_memory(std::size_t bytes, int gpu) : m_gpu(gpu) {
    int count = 0;
    if (auto e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
      // The wording of the gpu.* and NCCL skips: "no NVIDIA driver" where there is none.
      int driver = 0;
      const bool known = e != cudaSuccess && cudaDriverGetVersion(&driver) == cudaSuccess;
      const std::string why =
          e == cudaSuccess
              ? std::string("none found")
              : core::cuda_device_error_reason(e == cudaErrorInsufficientDriver,
                                               known ? std::optional<int>(driver) : std::nullopt,
                                               CUDART_VERSION, cuda_text(e));
      cudaGetLastError();
      throw core::skip_case("--rdma-memory cuda: no CUDA device (" + why + ")");
    }
    if (gpu < 0 || gpu >= count)
      throw core::usage_error("GPU " + std::to_string(gpu) + " does not exist (" +
                              std::to_string(count) + " CUDA devices)");
    if (auto e = cudaSetDevice(gpu); e != cudaSuccess)
      throw std::runtime_error("cudaSetDevice(" + std::to_string(gpu) + "): " + cuda_text(e));
    m_size = (bytes + gpu_page - 1) / gpu_page * gpu_page;
    void* p = nullptr;
    if (auto e = cudaMalloc(&p, m_size); e != cudaSuccess)
      throw std::runtime_error("cudaMalloc of " + std::to_string(m_size) + " bytes on GPU " +
                               std::to_string(gpu) + ": " + cuda_text(e));
    m_data = static_cast<std::byte*>(p);
    // The CPU never touches this memory: zero it on the device.
    if (auto e = cudaMemset(p, 0, m_size); e != cudaSuccess)
      throw std::runtime_error("cudaMemset: " + cuda_text(e));
    if (auto e = cudaDeviceSynchronize(); e != cudaSuccess)
      throw std::runtime_error("cudaDeviceSynchronize: " + cuda_text(e));
  }
  ~cuda_memory() override {
    if (m_data) static_cast<void>(cudaFree(m_data));
  }
  cuda_memory(const cuda_memory&) = delete;
  cuda_memory& operator=(const cuda_memory&) = delete;

  std::byte* data() override { return m_data; }
  std::size_t size() const override { return m_size; }
  bool host_accessible() const override { return false; }
  std::string describe() const override {
    return "GPU " + std::to_string(m_gpu) + " memory via " + m_method;
  }

  mr_ptr register_region(ibv_pd* pd, int access, const std::string& device) override {
    std::string dmabuf_note = dmabuf_unavailable_reason();
    if (dmabuf_note.empty()) {
      int fd = -1;
      const auto get_handle = driver_entry<get_handle_fn>("cuMemGetHandleForAddressRange", 11070);
      // The export starts on a host page; the MR names the buffer by its offset into it.
      const auto addr = reinterpret_cast<std::uint64_t>(m_data);
      const auto range =
          dmabuf_range_for(addr, m_size, static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)));
      const CUresult r = get_handle(&fd, static_cast<CUdeviceptr>(range.base), range.length,
                                    CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
      if (r == CUDA_SUCCESS && fd >= 0) {
        mr_ptr mr(ibv_reg_dmabuf_mr(pd, range.offset, m_size, addr, fd, access));
        const int err = errno;
        ::close(fd);  // the MR holds its own reference to the buffer
        if (mr) {
          m_method = "DMA-BUF";
          return mr;
        }
        dmabuf_note = std::string("ibv_reg_dmabuf_mr: ") + std::strerror(err);
      } else {
        dmabuf_note = "cuMemGetHandleForAddressRange failed (CUresult " +
                      std::to_string(static_cast<int>(r)) + ")";
      }
    }
    mr_ptr mr(ibv_reg_mr(pd, m_data, m_size, access));
    if (!mr)
      throw core::skip_case("GPUDirect RDMA unavailable on " + device + ": DMA-BUF: " +
                            dmabuf_note + "; ibv_reg_mr on GPU memory: " + std::strerror(errno) +
                            " (is the nvidia-peermem module loaded?)");
    m_method = "nvidia-peermem (ibv_reg_mr)";
    return mr;
  }

 private:
  // Empty when DMA-BUF export should work.
  std::string dmabuf_unavailable_reason() const {
    const auto get_attr = driver_entry<get_attribute_fn>("cuDeviceGetAttribute", 2000);
    const auto get_handle = driver_entry<get_handle_fn>("cuMemGetHandleForAddressRange", 11070);
    if (!get_attr || !get_handle) return "the CUDA driver does not export DMA-BUF handles";
    int supported = 0;
    if (get_attr(&supported, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, m_gpu) != CUDA_SUCCESS ||
        !supported)
      return "GPU " + std::to_string(m_gpu) + " or its driver does not support DMA-BUF";
    return {};
  }

  std::byte* m_data = nullptr;
  std::size_t m_size = 0;
  int m_gpu = 0;
  std::string m_method = "unregistered";
};

}  // namespace

std::unique_ptr<rdma_memory> make_cuda_memory(std::size_t bytes, int gpu) {
  return std::make_unique<cuda_memory>(bytes, gpu);
}

}  // namespace gpubench::transports::rdma

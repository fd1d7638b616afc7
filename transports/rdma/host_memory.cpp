// Host memory for RDMA: an anonymous mapping, registered with ibv_reg_mr.
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/errors.hpp"
#include "transports/rdma/rdma_memory.hpp"

namespace gpubench::transports::rdma {

namespace {

class host_memory final : public rdma_memory {
 public:
  explicit host_memory(std::size_t bytes) : m_size(bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error(
          core::errno_message("allocating " + std::to_string(bytes) + " bytes for RDMA", errno));
    m_data = static_cast<std::byte*>(p);
    // First touch by this (NUMA-bound) thread places the pages.
    std::memset(m_data, 0, bytes);
  }
  ~host_memory() override { ::munmap(m_data, m_size); }
  host_memory(const host_memory&) = delete;
  host_memory& operator=(const host_memory&) = delete;

  std::byte* data() override { return m_data; }
  std::size_t size() const override { return m_size; }
  bool host_accessible() const override { return true; }
  std::string describe() const override { return "host memory"; }

  mr_ptr register_region(ibv_pd* pd, int access, const std::string& device) override {
    mr_ptr mr(ibv_reg_mr(pd, m_data, m_size, access));
    if (!mr) throw_verbs("ibv_reg_mr of " + std::to_string(m_size) + " bytes", device, errno);
    return mr;
  }

 private:
  std::byte* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace

std::unique_ptr<rdma_memory> make_host_memory(std::size_t bytes) {
  return std::make_unique<host_memory>(bytes);
}

}  // namespace gpubench::transports::rdma

// The NCCL runtime of coll.allreduce: NCCL loaded on first use, one rank per GPU under MPI
// (the unique id from the communicator's rank 0, broadcast over MPI), or one process over
// every local GPU.
#include <optional>
#include <span>
#include <vector>

#include "core/errors.hpp"
#include "transports/collective/nccl_logic.hpp"
#include "transports/collective/runtimes.hpp"
#include "transports/nccl/cuda_resources.hpp"
#include "transports/nccl/nccl_allreduce.hpp"
#include "transports/nccl/nccl_library.hpp"

namespace gpubench::coll {

namespace {

int nccl_major(int code) {
  return code >= 20900 ? code / 10000 : code / 1000;
}

class nccl_real final : public nccl_runtime {
 public:
  std::optional<std::string> unavailable() override {
    if (!load()) return m_load_error;
    // ncclAllReduce's ABI holds within a major version; across majors nothing is promised.
    if (nccl_major(m_lib->version_code()) != nccl_major(NCCL_VERSION_CODE))
      return "NCCL " + nccl_version_text(m_lib->version_code()) + " loaded from " + m_lib->path() +
             ", but gpubench was built against " + nccl_version_text(NCCL_VERSION_CODE) +
             " (another major version)";
    std::string why;
    if (local_gpus(why) == 0) return why;
    return std::nullopt;
  }

  int local_gpus(std::string& why) override {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      why = std::string("needs a CUDA device: cudaGetDeviceCount: ") + cudaGetErrorString(e);
      return 0;
    }
    if (count == 0) why = "needs a CUDA device: none found";
    return count;
  }

  nlohmann::json describe() override {
    if (!load()) return {{"available", false}, {"reason", m_load_error}};
    return {{"available", true},
            {"version", nccl_version_text(m_lib->version_code())},
            {"library", m_lib->path()},
            {"compiled_against", nccl_version_text(NCCL_VERSION_CODE)}};
  }

  std::unique_ptr<allreduce_backend> rank_backend(process_group& group, int local_rank, dtype type,
                                                  double stall_timeout_s) override {
    if (!load()) throw core::skip_case(m_load_error);
    std::string why;
    const auto device = device_for_local_rank(local_rank, local_gpus(why), why);
    // Only the communicator's rank 0 creates the id; everyone else receives its bytes.
    ncclUniqueId id{};
    if (group.rank() == 0) m_lib->check(m_lib->fn().get_unique_id(&id), "ncclGetUniqueId");
    group.broadcast(std::as_writable_bytes(std::span(&id, 1)), 0);
    if (group.any(!device))
      throw core::skip_case(device ? "a rank of this launch has no GPU to drive" : why);
    return std::make_unique<nccl::allreduce>(*m_lib, std::vector<int>{*device}, group.rank(),
                                             group.size(), id, type, stall_timeout_s);
  }

  std::unique_ptr<allreduce_backend> local_backend(dtype type, double stall_timeout_s) override {
    if (!load()) throw core::skip_case(m_load_error);
    std::string why;
    const int count = local_gpus(why);
    if (count == 0) throw core::skip_case(why);
    std::vector<int> devices;
    for (int d = 0; d < count; ++d)
      devices.push_back(d);
    ncclUniqueId id{};
    m_lib->check(m_lib->fn().get_unique_id(&id), "ncclGetUniqueId");
    return std::make_unique<nccl::allreduce>(*m_lib, devices, 0, count, id, type, stall_timeout_s);
  }

 private:
  bool load() {
    if (m_lib) return true;
    if (!m_load_error.empty()) return false;
    try {
      m_lib = std::make_unique<nccl::library>();
    } catch (const std::exception& e) {
      m_load_error = e.what();
    }
    return m_lib != nullptr;
  }

  std::unique_ptr<nccl::library> m_lib;
  std::string m_load_error;
};

}  // namespace

std::unique_ptr<nccl_runtime> make_nccl_runtime() {
  return std::make_unique<nccl_real>();
}

}  // namespace gpubench::coll

// The NCCL runtime of the collective benchmarks: NCCL loaded on first use, one rank per GPU
// under MPI (the unique id from the communicator's rank 0, broadcast over MPI), or one
// process over every local GPU.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/errors.hpp"
#include "core/system/cuda_driver_text.hpp"
#include "transports/nccl/cuda_resources.hpp"
#include "transports/nccl/nccl_backend.hpp"
#include "transports/nccl/nccl_library.hpp"
#include "transports/nccl/nccl_logic.hpp"
#include "transports/nccl/nccl_runtime.hpp"
#include "transports/process_group.hpp"

namespace gpubench::transports::nccl {

namespace {

int nccl_major(int code) {
  return code >= 20900 ? code / 10000 : code / 1000;
}

class nccl_real final : public runtime {
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
      // The gpu.* cases' wording: both versions for an old driver, "no NVIDIA driver" for none.
      int driver = 0;
      const bool known = cudaDriverGetVersion(&driver) == cudaSuccess;
      why = "needs a CUDA device: " +
            core::cuda_device_error_reason(
                e == cudaErrorInsufficientDriver, known ? std::optional<int>(driver) : std::nullopt,
                CUDART_VERSION, std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e));
      cudaGetLastError();
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

  std::unique_ptr<collective_backend> rank_backend(process_group& group, int node_index, dtype type,
                                                   double stall_timeout_s) override {
    if (!load()) throw core::skip_case(m_load_error);
    std::string why;
    const int count = local_gpus(why);
    // Devices first, collectively: ncclGetUniqueId starts a bootstrap thread that a skipped
    // case would leave behind.
    if (group.any(count == 0))
      throw core::skip_case(count > 0 ? "a rank of this launch has no GPU to drive" : why);
    // A rank's device: its index among the ranks of its node that see the same GPUs, modulo
    // their number (srun --gpu-bind gives each task its share of the node's GPUs).
    const std::string seen = visible_bus_ids(count);
    const auto keys = gather_text(group, node_index, seen);
    const int index = index_among_same_devices(keys)[static_cast<std::size_t>(group.rank())];
    const int device = *device_for_local_rank(index, count, why);
    if (auto dup = duplicate_gpus(gather_gpus(group, node_index, device)))
      throw std::runtime_error(*dup);
    // The device opened and its stream made on every rank before any rank waits in NCCL's
    // initialisation: a rank that cannot (EXCLUSIVE_PROCESS, out of memory) fails the case on
    // every rank at once instead of leaving the others there until the watchdog.
    std::unique_ptr<gpu_backend> backend;
    std::string failed;
    try {
      backend = std::make_unique<gpu_backend>(*m_lib, std::vector<int>{device}, group.rank(),
                                              group.size(), type, stall_timeout_s);
    } catch (const std::exception& e) {
      failed = e.what();
    }
    if (group.any(!failed.empty())) {
      // Every rank says which ranks failed and why: only rank 0 writes the result file.
      std::string all;
      const auto said = gather_text(group, node_index, failed);
      for (std::size_t r = 0; r < said.size(); ++r)
        if (!said[r].second.empty())
          all += (all.empty() ? "" : "; ") + ("rank " + std::to_string(r) + ": ") + said[r].second;
      throw std::runtime_error("opening the GPUs before NCCL's initialisation: " + all);
    }
    // Only the communicator's rank 0 creates the id; everyone else receives its bytes (a
    // failure on rank 0 fails every member, none is left in the broadcast).
    ncclUniqueId id{};
    make_and_broadcast(group, std::as_writable_bytes(std::span(&id, 1)), 0, [&] {
      m_lib->check(m_lib->fn().get_unique_id(&id), "ncclGetUniqueId on rank 0");
    });
    backend->init(id);
    return backend;
  }

  std::string debug_log() override {
    if (!m_debug) return "";
    std::ifstream in(m_debug->path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string keep_debug_log() override {
    if (!m_debug) return "";
    m_debug->keep = true;
    return m_debug->path.string();
  }

  std::unique_ptr<collective_backend> local_backend(dtype type, double stall_timeout_s) override {
    if (!load()) throw core::skip_case(m_load_error);
    std::string why;
    const int count = local_gpus(why);
    if (count == 0) throw core::skip_case(why);
    std::vector<int> devices;
    for (int d = 0; d < count; ++d)
      devices.push_back(d);
    auto backend = std::make_unique<gpu_backend>(*m_lib, devices, 0, count, type, stall_timeout_s);
    ncclUniqueId id{};
    m_lib->check(m_lib->fn().get_unique_id(&id), "ncclGetUniqueId");
    backend->init(id);
    return backend;
  }

 private:
  // The bus ids of every device this rank sees, one string.
  static std::string visible_bus_ids(int count) {
    std::string out;
    for (int d = 0; d < count; ++d) {
      char bus[32] = {};
      if (cudaDeviceGetPCIBusId(bus, sizeof bus - 1, d) != cudaSuccess)
        std::snprintf(bus, sizeof bus, "device %d", d);
      out += (out.empty() ? "" : ",") + std::string(bus);
    }
    return out;
  }

  // Every rank's node and `text` (cut to 512 bytes), in communicator rank order.
  static std::vector<std::pair<int, std::string>> gather_text(process_group& group, int node_index,
                                                              const std::string& text) {
    struct record {
      std::int32_t node;
      char text[512];
    };
    record mine{};
    mine.node = node_index;
    std::snprintf(mine.text, sizeof mine.text, "%s", text.c_str());
    const auto all = group.allgather(std::as_bytes(std::span(&mine, 1)));
    std::vector<std::pair<int, std::string>> out;
    for (std::size_t i = 0; i < all.size() / sizeof(record); ++i) {
      record r{};
      std::memcpy(&r, all.data() + i * sizeof(record), sizeof(record));
      out.emplace_back(r.node, std::string(r.text, ::strnlen(r.text, sizeof r.text)));
    }
    return out;
  }

  // Every rank's node, host and GPU bus id, in communicator rank order.
  static std::vector<rank_gpu> gather_gpus(process_group& group, int node_index, int device) {
    struct record {
      std::int32_t node;
      char host[64];
      char bus[32];
    };
    record mine{};
    mine.node = node_index;
    if (::gethostname(mine.host, sizeof mine.host - 1) != 0) mine.host[0] = '\0';
    if (cudaDeviceGetPCIBusId(mine.bus, sizeof mine.bus - 1, device) != cudaSuccess)
      std::snprintf(mine.bus, sizeof mine.bus, "device %d", device);
    const auto all = group.allgather(std::as_bytes(std::span(&mine, 1)));
    std::vector<rank_gpu> out;
    for (std::size_t i = 0; i < all.size() / sizeof(record); ++i) {
      record r{};
      std::memcpy(&r, all.data() + i * sizeof(record), sizeof(record));
      out.push_back({static_cast<int>(i), r.node,
                     std::string(r.host, ::strnlen(r.host, sizeof r.host)),
                     std::string(r.bus, ::strnlen(r.bus, sizeof r.bus))});
    }
    return out;
  }

  // NCCL reads NCCL_DEBUG* once, at its first initialisation: before any NCCL call, send its
  // INIT and NET lines (and its WARN lines, which no subsystem filter hides) to a file of this
  // process, unless the user chose NCCL's debug output. Removed at exit unless a case failed.
  struct debug_file {
    std::filesystem::path path;
    bool keep = false;
    ~debug_file() {
      std::error_code ec;
      if (!keep) std::filesystem::remove(path, ec);
    }
  };
  void capture_debug() {
    if (std::getenv("NCCL_DEBUG") || std::getenv("NCCL_DEBUG_FILE")) return;
    auto d = std::make_unique<debug_file>();
    d->path = std::filesystem::temp_directory_path() /
              ("gpubench-nccl-" + std::to_string(::getpid()) + ".log");
    ::setenv("NCCL_DEBUG", "INFO", 0);
    ::setenv("NCCL_DEBUG_SUBSYS", "INIT,NET", 0);
    ::setenv("NCCL_DEBUG_FILE", d->path.c_str(), 0);
    m_debug = std::move(d);
  }

  bool load() {
    if (m_lib) return true;
    if (!m_load_error.empty()) return false;
    capture_debug();
    try {
      m_lib = std::make_unique<library>();
    } catch (const std::exception& e) {
      m_load_error = e.what();
    }
    return m_lib != nullptr;
  }

  std::unique_ptr<debug_file> m_debug;
  std::unique_ptr<library> m_lib;
  std::string m_load_error;
};

}  // namespace

std::unique_ptr<runtime> make_runtime() {
  return std::make_unique<nccl_real>();
}

}  // namespace gpubench::transports::nccl

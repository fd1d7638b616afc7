// The interface between the GPU benchmarks and CUDA: registration files use only this, so
// they build everywhere; backend_cuda.cpp answers with a device, backend_none.cpp with why not.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/benchmark.hpp"
#include "core/case_state.hpp"
#include "core/timer.hpp"

namespace gpubench::benchmarks::gpu {

enum class copy_engine { ce, sm };  // copy engine (cudaMemcpyAsync) or a copy kernel
enum class host_memory { pinned, pageable };
enum class host_direction { h2d, d2h, bidir };

struct host_copy_request {
  std::vector<int> gpus;  // one GPU, or several copying at once (aggregate host bandwidth)
  host_direction direction = host_direction::h2d;
  host_memory memory = host_memory::pinned;
  copy_engine engine = copy_engine::ce;
  std::optional<unsigned> numa;  // node of the host memory; unset: the default policy
  std::uint64_t max_bytes = 0;   // largest copy of the sweep, allocated once
};

struct p2p_copy_request {
  int src = 0;
  int dst = 1;
  copy_engine engine = copy_engine::ce;
  bool read = false;        // the destination GPU pulls (else the source GPU pushes)
  bool bidir = false;       // and the same copy the other way at once
  bool peer_access = true;  // false: peer access disabled, the driver stages through host
  std::uint64_t max_bytes = 0;
};

struct latency_request {
  int gpu = 0;                   // the GPU that chases the pointers
  std::optional<int> peer;       // memory on this GPU; unset: pinned host memory
  std::optional<unsigned> numa;  // node of that host memory
};

// One prepared measurement (buffers, streams, timer). The body drives it through
// case_state::measure, so the runner keeps warm-up, the stopping rule and statistics.
class copy_job {
 public:
  virtual ~copy_job() = default;
  // Fills source and destination with different patterns for copies of `bytes` (outside
  // any timing) and says what one sample moves.
  virtual core::sample_spec prepare(std::uint64_t bytes) = 0;
  // CUDA events behind a spin latch for pinned memory, a steady clock for pageable.
  virtual core::timer& timer() = 0;
  virtual void enqueue() = 0;  // the timed work of one sample, between timer start and stop
  virtual void verify() = 0;   // throws when the destination does not hold the source's bytes
  virtual nlohmann::json context() const = 0;
  // Numbers the point records beside its statistics, from the samples since prepare() past
  // the runner's `warmup` ones: each direction of a bidirectional copy.
  virtual nlohmann::json point_extra(std::size_t /*warmup*/) const {
    return nlohmann::json::object();
  }
};

// What CUDA says of one device, for the topology and the peaks.
struct device_facts {
  int index = 0;
  std::string name;
  std::string uuid;
  std::string pci_bus_id;  // normalized, "0000:3b:00.0"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  std::optional<int> host_numa;               // cudaDevAttrHostNumaId
  std::optional<std::string> mig_mode;        // "enabled" | "disabled", from NVML
  std::optional<std::string> virtualization;  // NVML's virtualization mode ("passthrough", ...)
};

struct pair_facts {
  bool can_access_peer = false;
  std::optional<int> performance_rank;
  std::optional<int> nvlink_links;  // unset: NVML could not say
};

class backend {
 public:
  virtual ~backend() = default;
  // Met when at least one device answers; else the CUDA error string.
  virtual core::requirement_status status() const = 0;
  virtual int device_count() const = 0;
  virtual device_facts device(int index) const = 0;
  virtual pair_facts pair(int a, int b) const = 0;
  // software.cuda_driver / cuda_runtime / nvidia_driver, and what could not be learnt.
  virtual nlohmann::json software() const = 0;
  virtual std::vector<std::string> notes() const = 0;

  virtual std::unique_ptr<copy_job> host_copy(const host_copy_request& r) = 0;
  virtual std::unique_ptr<copy_job> p2p_copy(const p2p_copy_request& r) = 0;
  virtual std::unique_ptr<copy_job> latency(const latency_request& r) = 0;
};

// The CUDA backend when built with CUDA, else the one that explains why not.
std::unique_ptr<backend> make_backend();

}  // namespace gpubench::benchmarks::gpu

// Host<->GPU copies: pinned memory behind the spin latch with CUDA events (copy engine or
// copy kernel, one GPU or several at once, one way or both), pageable memory with a steady
// clock around copies and a synchronise.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/jobs.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/cuda/latched_timer.hpp"
#include "benchmarks/gpu/cuda/verify.hpp"

namespace gpubench::gpu::cuda {

namespace {

// One GPU's part: its streams, its device buffer(s) and its host buffer(s). The "up"
// copy is host -> GPU, the "down" copy GPU -> host; bidir runs both.
struct lane {
  int gpu = 0;
  int sm_count = 0;
  std::unique_ptr<stream> up_stream;
  std::unique_ptr<stream> down_stream;  // bidir with the copy engine only
  std::unique_ptr<device_memory> up_dev, down_dev;
  std::unique_ptr<host_memory_buffer> up_host, down_host;
  void* up_host_dev = nullptr;  // mapped pointers for the copy kernel
  void* down_host_dev = nullptr;
  kernel_geometry geometry;
};

class host_copy_job final : public copy_job {
 public:
  explicit host_copy_job(const host_copy_request& r) : m_req(r) {
    if (r.gpus.empty()) throw std::logic_error("host copy without a GPU");
    const bool pageable = r.memory == host_memory::pageable;
    if (pageable &&
        (r.engine == copy_engine::sm || r.gpus.size() > 1 || r.direction == host_direction::bidir))
      throw std::logic_error("pageable memory is measured one GPU, one way, copy engine only");
    int count = 0;
    check(cudaGetDeviceCount(&count), "counting CUDA devices");
    preload_kernels(count);
    const bool up = r.direction != host_direction::d2h;
    const bool down = r.direction != host_direction::h2d;
    const auto bytes = static_cast<std::size_t>(r.max_bytes);
    std::vector<const stream*> streams;
    for (const int g : r.gpus) {
      auto& l = m_lanes.emplace_back();
      l.gpu = g;
      check(cudaDeviceGetAttribute(&l.sm_count, cudaDevAttrMultiProcessorCount, g),
            "reading the SM count of GPU " + std::to_string(g));
      l.up_stream = std::make_unique<stream>(g);
      streams.push_back(l.up_stream.get());
      if (up) {
        l.up_dev = std::make_unique<device_memory>(g, bytes);
        l.up_host = std::make_unique<host_memory_buffer>(m_topo, bytes, r.numa, !pageable);
      }
      if (down) {
        l.down_dev = std::make_unique<device_memory>(g, bytes);
        l.down_host = std::make_unique<host_memory_buffer>(m_topo, bytes, r.numa, !pageable);
      }
      if (up && down && r.engine == copy_engine::ce) {
        // Never both directions on one stream: they would serialise.
        l.down_stream = std::make_unique<stream>(g);
        streams.push_back(l.down_stream.get());
      }
      if (r.engine == copy_engine::sm) {
        const device_guard guard(g);
        if (l.up_host) l.up_host_dev = l.up_host->device_pointer();
        if (l.down_host) l.down_host_dev = l.down_host->device_pointer();
      }
    }
    if (pageable) {
      m_timer = std::make_unique<core::steady_timer>();
    } else {
      auto t = std::make_unique<latched_timer>(std::move(streams));
      t->set_warmup([this] { enqueue_copies(m_schedule.warmup); });
      m_timer = std::move(t);
    }
  }

  core::sample_spec prepare(std::uint64_t bytes) override {
    if (bytes > m_req.max_bytes) throw std::logic_error("copy larger than its buffers");
    m_bytes = bytes;
    m_schedule = schedule_for(bytes);
    if (m_req.memory == host_memory::pageable) m_schedule.warmup = 0;
    m_seed += 2;
    double moved = 0;
    for (auto& l : m_lanes) {
      l.geometry = sm_copy_geometry(bytes, l.sm_count);
      if (l.up_host) {
        fill_host(l.up_host->get(), bytes, m_seed);
        fill_device(*l.up_stream, l.up_dev->get(), bytes, m_seed + 1);
      }
      if (l.down_host) {
        fill_device(*l.up_stream, l.down_dev->get(), bytes, m_seed);
        fill_host(l.down_host->get(), bytes, m_seed + 1);
      }
      const double per_copy = static_cast<double>(copied_bytes(l));
      moved += per_copy * m_schedule.loops * ((l.up_host && l.down_host) ? 2 : 1);
    }
    core::sample_spec spec;
    spec.bytes = moved;
    spec.operations = m_schedule.loops;
    return spec;
  }

  core::timer& timer() override { return *m_timer; }

  void enqueue() override {
    enqueue_copies(m_schedule.loops);
    if (m_req.memory == host_memory::pageable)
      // Pageable copies may return before the data moved: the sample ends when it has.
      for (auto& l : m_lanes)
        l.up_stream->synchronize("pageable copies");
  }

  void verify() override {
    for (auto& l : m_lanes) {
      const std::uint64_t n = copied_bytes(l);
      const std::string gpu = "GPU " + std::to_string(l.gpu);
      if (l.up_host)
        expect_no_mismatch(device_mismatches(*l.up_stream, l.up_dev->get(), n, m_seed), n,
                           gpu + " host-to-device copy");
      if (l.down_host)
        expect_no_mismatch(host_mismatches(l.down_host->get(), n, m_seed), n,
                           gpu + " device-to-host copy");
    }
  }

  nlohmann::json context() const override {
    nlohmann::json j;
    const bool pinned = m_req.memory == host_memory::pinned;
    j["timer"] = pinned ? "CUDA events, copies queued behind a spin-kernel latch"
                        : "steady clock around the copies and a stream synchronise "
                          "(pageable copies cannot be queued behind a latch)";
    j["copy"] = m_req.engine == copy_engine::ce
                    ? "cudaMemcpyAsync on a non-blocking stream per direction"
                    : (m_req.direction == host_direction::bidir
                           ? "copy kernel, even warps one way and odd warps the other"
                           : "copy kernel, one block of 512 threads per SM, 16-byte words");
    j["host_memory"] = pinned ? "registered with cudaHostRegister (portable, mapped)"
                              : "pageable (malloc-like, pages touched first)";
    const auto& first = m_lanes.front();
    const host_memory_buffer* h = first.up_host ? first.up_host.get() : first.down_host.get();
    j["host_memory_node"] =
        h && h->placed_node() ? nlohmann::json(*h->placed_node()) : nlohmann::json(nullptr);
    return j;
  }

 private:
  std::uint64_t copied_bytes(const lane& l) const {
    return m_req.engine == copy_engine::sm ? l.geometry.bytes : m_bytes;
  }

  void enqueue_copies(unsigned count) {
    if (count == 0) return;
    for (auto& l : m_lanes) {
      const device_guard guard(l.gpu);
      if (m_req.engine == copy_engine::sm) {
        if (l.up_host && l.down_host)
          launch_split_copy(l.up_stream->get(), l.up_host_dev, l.up_dev->get(), l.down_dev->get(),
                            l.down_host_dev, l.geometry, count);
        else if (l.up_host)
          launch_copy(l.up_stream->get(), l.up_host_dev, l.up_dev->get(), l.geometry, count);
        else
          launch_copy(l.up_stream->get(), l.down_dev->get(), l.down_host_dev, l.geometry, count);
        continue;
      }
      for (unsigned i = 0; i < count; ++i) {
        if (l.up_host)
          check(cudaMemcpyAsync(l.up_dev->get(), l.up_host->get(), m_bytes, cudaMemcpyDefault,
                                l.up_stream->get()),
                "queueing a host-to-device copy on GPU " + std::to_string(l.gpu));
        if (l.down_host) {
          const stream& s = l.down_stream ? *l.down_stream : *l.up_stream;
          check(cudaMemcpyAsync(l.down_host->get(), l.down_dev->get(), m_bytes, cudaMemcpyDefault,
                                s.get()),
                "queueing a device-to-host copy on GPU " + std::to_string(l.gpu));
        }
      }
    }
  }

  host_copy_request m_req;
  host_topology m_topo;
  std::vector<lane> m_lanes;
  std::unique_ptr<core::timer> m_timer;
  copy_schedule m_schedule;
  std::uint64_t m_bytes = 0;
  std::uint32_t m_seed = 1;
};

}  // namespace

std::unique_ptr<copy_job> make_host_copy_job(const host_copy_request& r) {
  return std::make_unique<host_copy_job>(r);
}

}  // namespace gpubench::gpu::cuda

// Host<->GPU copies: pinned memory behind the spin latch with CUDA events (copy engine or
// copy kernel, one GPU or several at once, one way or both), pageable memory with a steady
// clock around copies and a synchronise.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "benchmarks/gpu/copy_plan.hpp"
#include "benchmarks/gpu/cuda/bidir_timer.hpp"
#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/jobs.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/cuda/latched_timer.hpp"
#include "benchmarks/gpu/cuda/verify.hpp"

namespace gpubench::benchmarks::gpu::cuda {

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
  explicit host_copy_job(const host_copy_request& r) : m_req(r), m_cpus(m_topo, r.numa) {
    if (r.gpus.empty()) throw std::logic_error("host copy without a GPU");
    const bool pageable = r.memory == host_memory::pageable;
    if (pageable &&
        (r.engine == copy_engine::sm || r.gpus.size() > 1 || r.direction == host_direction::bidir))
      throw std::logic_error("pageable memory is measured one GPU, one way, copy engine only");
    preload_kernels(job_devices(r.gpus));
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
        l.up_host = std::make_unique<host_memory_buffer>(m_topo, bytes, r.numa, !pageable, g);
      }
      if (down) {
        l.down_dev = std::make_unique<device_memory>(g, bytes);
        l.down_host = std::make_unique<host_memory_buffer>(m_topo, bytes, r.numa, !pageable, g);
      }
      if (up && down && r.engine == copy_engine::ce) {
        // Never both directions on one stream: they would serialise.
        l.down_stream = std::make_unique<stream>(g);
        streams.push_back(l.down_stream.get());
      }
      if (r.engine == copy_engine::sm) {
        select_device(g);
        if (l.up_host) l.up_host_dev = l.up_host->device_pointer();
        if (l.down_host) l.down_host_dev = l.down_host->device_pointer();
      }
    }
    if (pageable) {
      m_timer = std::make_unique<core::steady_timer>();
      return;
    }
    const bool two_streams = streams.size() == 2;
    m_latch = std::make_unique<latched_timer>(std::move(streams));
    m_latch->set_warmup([this] { enqueue_copies(m_schedule.warmup); });
    if (up && down && r.engine == copy_engine::ce) {
      // nvbandwidth's larger interfering copy: each direction copies as much again after
      // its end event, so the faster one is still busy when the slower one ends and no
      // interval has a tail that runs one way only (which would bias the sum low).
      m_latch->set_trailer([this] { enqueue_copies(m_schedule.loops); });
      // One GPU: a stream per direction, each timed on its own.
      if (two_streams) m_bidir = std::make_unique<bidir_timer>(*m_latch);
    }
  }

  core::sample_spec prepare(std::uint64_t bytes) override {
    if (bytes > m_req.max_bytes) throw std::logic_error("copy larger than its buffers");
    m_bytes = bytes;
    m_schedule = schedule_for(bytes);
    if (m_req.memory == host_memory::pageable) m_schedule.warmup = 0;
    m_seed += 2;
    double moved = 0, moved_up = 0, moved_down = 0;
    for (auto& l : m_lanes) {
      const bool split =
          m_req.engine == copy_engine::sm && m_req.direction == host_direction::bidir;
      l.geometry = sm_copy_geometry(bytes, l.sm_count, split ? split_copy_blocks_per_sm : 1);
      if (l.up_host) {
        fill_host(l.up_host->get(), bytes, m_seed);
        fill_device(*l.up_stream, l.up_dev->get(), bytes, m_seed + 1);
      }
      if (l.down_host) {
        fill_device(*l.up_stream, l.down_dev->get(), bytes, m_seed);
        fill_host(l.down_host->get(), bytes, m_seed + 1);
      }
      const double per_direction = static_cast<double>(copied_bytes(l)) * m_schedule.loops;
      if (l.up_host) moved_up += per_direction;
      if (l.down_host) moved_down += per_direction;
    }
    moved = moved_up + moved_down;
    if (m_bidir) m_bidir->set_bytes(moved_up, moved_down);
    core::sample_spec spec;
    spec.bytes = moved;
    spec.operations = m_schedule.loops;
    return spec;
  }

  core::timer& timer() override {
    if (m_bidir) return *m_bidir;
    if (m_latch) return *m_latch;
    return *m_timer;
  }

  nlohmann::json point_extra(std::size_t warmup) const override {
    if (!m_bidir) return nlohmann::json::object();
    const auto [h2d, d2h] = direction_medians(m_bidir->samples(), warmup);
    return {{"h2d_gbps", h2d}, {"d2h_gbps", d2h}};
  }

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
    j["copy"] =
        m_req.engine == copy_engine::ce
            ? "cudaMemcpyAsync on a non-blocking stream per direction"
            : (m_req.direction == host_direction::bidir
                   ? "copy kernel, four blocks of 512 threads per SM, even warps one way and odd "
                     "warps the other"
                   : "copy kernel, one block of 512 threads per SM, 16-byte words");
    if (m_req.direction == host_direction::bidir)
      j["bidirectional"] =
          m_bidir ? "a stream per direction, starts aligned, each kept busy past the other's "
                    "end; the value is the sum of both directions' bandwidths, h2d_gbps and "
                    "d2h_gbps give each"
          : m_req.engine == copy_engine::sm
              ? "one kernel copies both ways; the value is both directions' bytes over its "
                "time (no per-direction times)"
              : "every GPU both ways at once, each stream kept busy past the others' end; the "
                "value is all bytes over stream 0's start to the last end";
    if (m_req.numa) j["host_thread"] = "bound to the CPUs of the host memory's NUMA node";
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
      select_device(l.gpu);
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
  thread_on_node m_cpus;  // pageable copies are done by this thread's CPU
  std::vector<lane> m_lanes;
  std::unique_ptr<core::timer> m_timer;  // pageable memory: a steady clock
  std::unique_ptr<latched_timer> m_latch;
  std::unique_ptr<bidir_timer> m_bidir;  // declared after m_latch: destroyed first
  copy_schedule m_schedule;
  std::uint64_t m_bytes = 0;
  std::uint32_t m_seed = 1;
};

}  // namespace

std::unique_ptr<copy_job> make_host_copy_job(const host_copy_request& r) {
  return std::make_unique<host_copy_job>(r);
}

}  // namespace gpubench::benchmarks::gpu::cuda

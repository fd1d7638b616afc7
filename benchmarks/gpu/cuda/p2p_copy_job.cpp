// GPU<->GPU copies behind the spin latch: the source GPU pushes (write) or the destination
// GPU pulls (read), with the copy engine or a copy kernel, one way or both at once; with
// peer access on, or off so the driver stages the copy through host memory.
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

// One direction of the pair: data from `from` to `to`, issued by `plan.exec` on `s`. The
// source is filled on a stream of `from`, the destination filled and checked on a stream of
// `to` (copy_plan.hpp says why).
struct flow {
  int from = 0;
  int to = 0;
  flow_plan plan;
  int sm_count = 0;
  std::unique_ptr<device_memory> src, dst;
  std::unique_ptr<stream> s;
  std::unique_ptr<stream> src_owner, dst_owner;
  kernel_geometry geometry;
};

class p2p_copy_job final : public copy_job {
 public:
  explicit p2p_copy_job(const p2p_copy_request& r)
      : m_req(r), m_access(r.src, r.dst, r.peer_access) {
    if (!r.peer_access && r.engine == copy_engine::sm)
      throw std::logic_error("a copy kernel cannot reach a peer without peer access");
    preload_kernels(job_devices({r.src, r.dst}));
    add_flow(r.src, r.dst);
    if (r.bidir) add_flow(r.dst, r.src);
    if (!r.peer_access) {
      // The driver stages these copies through its own host buffers and may hold the
      // calling thread until earlier work on the stream ran: behind a latch that would
      // deadlock until the spin timeout. Time them like pageable copies instead.
      m_timer = std::make_unique<core::steady_timer>();
      return;
    }
    std::vector<const stream*> streams;
    for (auto& f : m_flows)
      streams.push_back(f.s.get());
    m_latch = std::make_unique<latched_timer>(std::move(streams));
    m_latch->set_warmup([this] { enqueue_copies(m_schedule.warmup); });
    if (r.bidir) {
      // Each direction copies as much again after its end event, so the other direction's
      // timed interval never has a tail in which it runs alone.
      m_latch->set_trailer([this] { enqueue_copies(m_schedule.loops); });
      m_bidir = std::make_unique<bidir_timer>(*m_latch);
    }
  }

  core::sample_spec prepare(std::uint64_t bytes) override {
    if (bytes > m_req.max_bytes) throw std::logic_error("copy larger than its buffers");
    m_bytes = bytes;
    m_schedule = schedule_for(bytes);
    if (!m_req.peer_access) m_schedule.warmup = 0;  // the runner's warm-up samples do it
    m_seed += 2;
    std::vector<double> per_flow;
    for (auto& f : m_flows) {
      f.geometry = sm_copy_geometry(bytes, f.sm_count);
      fill_device(*f.src_owner, f.src->get(), bytes, m_seed);
      fill_device(*f.dst_owner, f.dst->get(), bytes, m_seed + 1);
      per_flow.push_back(static_cast<double>(copied_bytes(f)) * m_schedule.loops);
    }
    if (m_bidir) m_bidir->set_bytes(per_flow.at(0), per_flow.at(1));
    core::sample_spec spec;
    for (const double b : per_flow)
      spec.bytes += b;
    spec.operations = m_schedule.loops;
    return spec;
  }

  core::timer& timer() override {
    if (m_bidir) return *m_bidir;
    if (m_latch) return *m_latch;
    return *m_timer;
  }

  void enqueue() override {
    enqueue_copies(m_schedule.loops);
    if (!m_req.peer_access)
      for (auto& f : m_flows)
        f.s->synchronize("staged copies");
  }

  void verify() override {
    for (auto& f : m_flows) {
      const std::uint64_t n = copied_bytes(f);
      expect_no_mismatch(device_mismatches(*f.dst_owner, f.dst->get(), n, m_seed), n,
                         "GPU " + std::to_string(f.from) + " -> GPU " + std::to_string(f.to));
    }
  }

  nlohmann::json point_extra(std::size_t warmup) const override {
    if (!m_bidir) return nlohmann::json::object();
    const auto [forward, reverse] = direction_medians(m_bidir->samples(), warmup);
    return {{"forward_gbps", forward}, {"reverse_gbps", reverse}};
  }

  nlohmann::json context() const override {
    nlohmann::json j;
    j["timer"] = m_req.peer_access
                     ? "CUDA events, copies queued behind a spin-kernel latch"
                     : "steady clock around the copies and a synchronise of every stream "
                       "(staged copies can block the host, so no latch)";
    j["initiator"] = m_req.read ? "destination GPU reads from the source"
                                : "source GPU writes to the destination";
    j["peer_access"] = m_req.peer_access
                           ? "enabled both ways"
                           : "disabled: the driver stages the copy through host memory";
    j["copy"] = m_req.engine == copy_engine::ce
                    ? "cudaMemcpyPeerAsync on a non-blocking stream of the initiator"
                    : "copy kernel on the initiator, one block of 512 threads per SM";
    if (m_req.bidir)
      j["bidirectional"] =
          m_bidir ? "both directions at once on a stream each, starts aligned, each kept busy "
                    "past the other's end; the value is the sum of the two directions' "
                    "bandwidths, forward_gbps (src -> dst) and reverse_gbps give each"
                  : "both directions from one host thread, one copy of each in turn; the "
                    "driver stages each copy through host memory and may hold the host until "
                    "it is done, so the directions may take turns rather than overlap, and the "
                    "value (both directions' bytes over one steady-clock interval around all "
                    "of them, no per-direction times) is a lower bound on both at once";
    return j;
  }

 private:
  void add_flow(int from, int to) {
    auto& f = m_flows.emplace_back();
    f.from = from;
    f.to = to;
    f.plan = plan_flow(from, to, m_req.read);
    check(cudaDeviceGetAttribute(&f.sm_count, cudaDevAttrMultiProcessorCount, f.plan.exec),
          "reading the SM count of GPU " + std::to_string(f.plan.exec));
    const auto bytes = static_cast<std::size_t>(m_req.max_bytes);
    f.src = std::make_unique<device_memory>(from, bytes);
    f.dst = std::make_unique<device_memory>(to, bytes);
    f.s = std::make_unique<stream>(f.plan.exec);
    f.src_owner = std::make_unique<stream>(f.plan.fill_src_on);
    f.dst_owner = std::make_unique<stream>(f.plan.fill_dst_on);
  }

  std::uint64_t copied_bytes(const flow& f) const {
    return m_req.engine == copy_engine::sm ? f.geometry.bytes : m_bytes;
  }

  void enqueue_copies(unsigned count) {
    if (count == 0) return;
    if (!m_req.peer_access) {
      // Staged copies may hold this thread until each is done: one direction's copies all
      // queued first could then finish before the other's start. In turn, one copy of each
      // direction at a time, the two at least alternate, and overlap where the driver lets
      // them (context() says so).
      for (unsigned i = 0; i < count; ++i)
        for (auto& f : m_flows) {
          select_device(f.plan.exec);
          queue_peer_copy(f);
        }
      return;
    }
    for (auto& f : m_flows) {
      // The executing GPU is current, so its copy engine or SMs do the work.
      select_device(f.plan.exec);
      if (m_req.engine == copy_engine::sm) {
        launch_copy(f.s->get(), f.src->get(), f.dst->get(), f.geometry, count);
        continue;
      }
      for (unsigned i = 0; i < count; ++i)
        queue_peer_copy(f);
    }
  }

  void queue_peer_copy(const flow& f) {
    check(cudaMemcpyPeerAsync(f.dst->get(), f.to, f.src->get(), f.from, m_bytes, f.s->get()),
          "queueing a copy GPU " + std::to_string(f.from) + " -> GPU " + std::to_string(f.to));
  }

  p2p_copy_request m_req;
  peer_access m_access;
  std::vector<flow> m_flows;
  std::unique_ptr<core::timer> m_timer;  // staged copies: a steady clock
  std::unique_ptr<latched_timer> m_latch;
  std::unique_ptr<bidir_timer> m_bidir;  // declared after m_latch: destroyed first
  copy_schedule m_schedule;
  std::uint64_t m_bytes = 0;
  std::uint32_t m_seed = 1;
};

}  // namespace

std::unique_ptr<copy_job> make_p2p_copy_job(const p2p_copy_request& r) {
  return std::make_unique<p2p_copy_job>(r);
}

}  // namespace gpubench::benchmarks::gpu::cuda

// Pointer-chase latency from a GPU to pinned host memory (on a chosen NUMA node) or to a
// peer GPU's memory: one thread, dependent uncached loads, events around the kernel.
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/gpu/copy_plan.hpp"
#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/jobs.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/cuda/latched_timer.hpp"

namespace gpubench::benchmarks::gpu::cuda {

namespace {

constexpr std::uint64_t node_count = chase_buffer_bytes / chase_stride_bytes;
constexpr std::uint64_t words_per_node = chase_stride_bytes / sizeof(std::uint64_t);

// Node i points at node i+1 (128 bytes on), addresses as the chasing GPU sees them.
std::vector<std::uint64_t> chain(std::uint64_t base) {
  std::vector<std::uint64_t> words(node_count * words_per_node, 0);
  for (std::uint64_t i = 0; i < node_count; ++i)
    words[i * words_per_node] = base + ((i + 1) % node_count) * chase_stride_bytes;
  return words;
}

class latency_job final : public copy_job {
 public:
  explicit latency_job(const latency_request& r) : m_req(r) {
    preload_kernels(job_devices({r.gpu}));  // the peer's memory is written with cudaMemcpy
    m_stream = std::make_unique<stream>(r.gpu);
    m_sink = std::make_unique<device_memory>(r.gpu, sizeof(void*));
    if (r.peer) {
      m_access = std::make_unique<peer_access>(r.gpu, *r.peer, true);
      m_peer_mem = std::make_unique<device_memory>(*r.peer, chase_buffer_bytes);
      m_base = m_peer_mem->get();
      const auto words = chain(reinterpret_cast<std::uint64_t>(m_base));
      // From pageable memory cudaMemcpy may return before the data has landed, and the
      // chase runs on another GPU's non-blocking stream, which does not wait for it: wait
      // here, or the first chase could follow garbage (an illegal address, sticky for
      // every later case).
      select_device(*r.peer);
      check(cudaMemcpy(m_base, words.data(), chase_buffer_bytes, cudaMemcpyHostToDevice),
            "writing the pointer chain to GPU " + std::to_string(*r.peer));
      check(cudaDeviceSynchronize(), "writing the pointer chain to GPU " + std::to_string(*r.peer));
    } else {
      m_host =
          std::make_unique<host_memory_buffer>(m_topo, chase_buffer_bytes, r.numa, true, r.gpu);
      select_device(r.gpu);
      m_base = m_host->device_pointer();
      const auto words = chain(reinterpret_cast<std::uint64_t>(m_base));
      std::copy(words.begin(), words.end(), static_cast<std::uint64_t*>(m_host->get()));
    }
    m_timer = std::make_unique<latched_timer>(std::vector<const stream*>{m_stream.get()});
  }

  core::sample_spec prepare(std::uint64_t) override {
    core::sample_spec spec;
    spec.operations = static_cast<double>(chase_loads);
    return spec;
  }

  core::timer& timer() override { return *m_timer; }

  void enqueue() override {
    select_device(m_req.gpu);
    launch_chase(m_stream->get(), m_base, chase_loads, static_cast<void**>(m_sink->get()));
  }

  void verify() override {
    void* end = nullptr;
    select_device(m_req.gpu);
    check(cudaMemcpyAsync(&end, m_sink->get(), sizeof end, cudaMemcpyDeviceToHost, m_stream->get()),
          "reading where the pointer chase ended");
    m_stream->synchronize("reading where the pointer chase ended");
    const auto expected =
        reinterpret_cast<std::uint64_t>(m_base) + chase_end_node(chase_loads) * chase_stride_bytes;
    if (reinterpret_cast<std::uint64_t>(end) != expected)
      throw std::runtime_error(
          "the pointer chase ended at the wrong node: the loads did not "
          "follow the chain, the measurement is not valid");
  }

  nlohmann::json context() const override {
    nlohmann::json j;
    j["timer"] = "CUDA events around one kernel, queued behind a spin-kernel latch";
    j["method"] = "one thread, " + std::to_string(chase_loads) +
                  " dependent loads (ld.global.cv: not cached in the chasing GPU's L1 or L2) "
                  "over a 2 MiB chain, 128-byte stride";
    if (m_req.peer)
      // A volatile load skips only the local caches: the peer GPU serves it from its own
      // L2 when the line is there, and 2 MiB fits in every L2 since Volta.
      j["what"] = "GPU " + std::to_string(m_req.gpu) + " loading from GPU " +
                  std::to_string(*m_req.peer) +
                  "'s memory across the link; the peer's L2 serves the loads (2 MiB chain), so "
                  "this is link plus remote L2 latency, not remote DRAM latency";
    if (m_host)
      j["host_memory_node"] =
          m_host->placed_node() ? nlohmann::json(*m_host->placed_node()) : nlohmann::json(nullptr);
    return j;
  }

 private:
  latency_request m_req;
  host_topology m_topo;
  std::unique_ptr<peer_access> m_access;
  std::unique_ptr<stream> m_stream;
  std::unique_ptr<device_memory> m_sink;
  std::unique_ptr<device_memory> m_peer_mem;
  std::unique_ptr<host_memory_buffer> m_host;
  void* m_base = nullptr;
  std::unique_ptr<latched_timer> m_timer;
};

}  // namespace

std::unique_ptr<copy_job> make_latency_job(const latency_request& r) {
  return std::make_unique<latency_job>(r);
}

}  // namespace gpubench::benchmarks::gpu::cuda

#include "runtime.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "environment.hpp"

namespace gpubench::tests::standin {

namespace {

// The one process-wide slot the C API reaches the installed runtime through, and the count
// that tells one test's runtime from the next (thread-local state of an earlier one is stale).
std::atomic<runtime*>& runtime_slot() {
  static std::atomic<runtime*> slot{nullptr};
  return slot;
}

std::uint64_t next_runtime_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1);
}

// CUDA's per-thread state: current device and last error, for one runtime.
struct thread_state {
  std::uint64_t runtime_id = 0;
  int device = 0;
  cudaError_t last = cudaSuccess;
};

thread_state& state_for(const runtime& rt) {
  thread_local thread_state s;
  if (s.runtime_id != rt.id()) s = {rt.id(), 0, cudaSuccess};
  return s;
}

thread_local int t_executing_device = -1;

std::string hex(std::uintptr_t p) {
  std::ostringstream o;
  o << "0x" << std::hex << p;
  return o.str();
}

}  // namespace

runtime* installed_runtime() {
  if (runtime* rt = runtime_slot().load(std::memory_order_acquire)) return rt;
  return environment_runtime();  // nullptr unless GPUBENCH_STANDIN_GPUS says what to be
}

void install_runtime(runtime* rt) {
  runtime_slot().store(rt, std::memory_order_release);
}

int executing_device() {
  return t_executing_device;
}

void set_executing_device(int d) {
  t_executing_device = d;
}

runtime::runtime(machine_config config)
    : m_config(std::move(config)),
      m_id(next_runtime_id()),
      m_peer(static_cast<std::size_t>(m_config.devices * m_config.devices)),
      m_sticky(static_cast<std::size_t>(m_config.devices)),
      m_legacy(static_cast<std::size_t>(m_config.devices)) {}

runtime::~runtime() {
  // Workers first: their operations use everything else.
  std::map<CUstream_st*, std::unique_ptr<CUstream_st>> streams;
  std::vector<std::unique_ptr<stream_worker>> legacy;
  {
    const std::lock_guard lock(m_mutex);
    streams.swap(m_streams);
    legacy.swap(m_legacy);
  }
  streams.clear();
  legacy.clear();
  for (const auto& [d, fd] : m_held)
    ::close(fd);  // the process's contexts end with it
}

int runtime::current_device() const {
  return state_for(*this).device;
}

void runtime::set_current_device(int d) {
  state_for(*this).device = d;
}

cudaError_t runtime::fail(cudaError_t e, const std::string& why, bool quiet) {
  state_for(*this).last = e;
  if (!quiet)
    std::fprintf(stderr, "gpubench CUDA stand-in: %s: %s\n", cudaGetErrorName(e), why.c_str());
  return e;
}

cudaError_t runtime::take_last_error() {
  auto& s = state_for(*this);
  const cudaError_t e = s.last;
  s.last = cudaSuccess;
  // A sticky error stays: every later call on that context returns it.
  const int d = s.device;
  if (valid_device(d) && device_failed(d)) return device_error(d);
  return e;
}

cudaError_t runtime::peek_last_error() const {
  return state_for(*this).last;
}

cudaError_t runtime::open_context(int d) {
  std::unique_lock lock(m_mutex);
  m_contexts.insert(d);
  if (m_config.mode != compute_mode::exclusive_process || m_held.count(d)) return cudaSuccess;
  const int physical = m_config.physical_of(d);
  const std::string path = m_config.node_dir + "/gpu" + std::to_string(physical) + ".context";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
    m_held[d] = fd;
    return cudaSuccess;
  }
  if (fd >= 0) ::close(fd);
  lock.unlock();
  return fail(cudaErrorDevicesUnavailable,
              "GPU " + std::to_string(d) + " (physical GPU " + std::to_string(physical) +
                  ") is in EXCLUSIVE_PROCESS mode and another process holds a context on it");
}

void runtime::reset_device(int d) {
  synchronize_device(d);
  std::vector<std::unique_ptr<CUstream_st>> streams;
  std::unique_ptr<stream_worker> legacy;
  {
    const std::lock_guard lock(m_mutex);
    for (auto it = m_streams.begin(); it != m_streams.end();)
      if (it->second->worker->device() == d) {
        streams.push_back(std::move(it->second));
        it = m_streams.erase(it);
      } else {
        ++it;
      }
    legacy = std::move(m_legacy[static_cast<std::size_t>(d)]);
    for (auto it = m_kernels.begin(); it != m_kernels.end();)
      it = it->first == d ? m_kernels.erase(it) : std::next(it);
  }
  streams.clear();
  legacy.reset();
  {
    const std::lock_guard lock(m_event_mutex);
    for (auto it = m_events.begin(); it != m_events.end();)
      it = it->second->device == d ? m_events.erase(it) : std::next(it);
  }
  for (const auto& r : m_memory.live())
    if (r.kind == memory_kind::device && r.device == d &&
        m_memory.remove(r.base, memory_kind::device, memory_kind::device))
      std::free(reinterpret_cast<void*>(r.base));
  for (int peer = 0; peer < m_config.devices; ++peer)
    set_peer_enabled(d, peer, false);
  m_sticky[static_cast<std::size_t>(d)].store(cudaSuccess);
  const std::lock_guard lock(m_mutex);
  if (const auto it = m_held.find(d); it != m_held.end()) {
    ::close(it->second);
    m_held.erase(it);
  }
}

std::set<int> runtime::contexts() const {
  const std::lock_guard lock(m_mutex);
  return m_contexts;
}

bool runtime::device_failed(int d) const {
  return m_sticky[static_cast<std::size_t>(d)].load() != cudaSuccess;
}

cudaError_t runtime::device_error(int d) const {
  return static_cast<cudaError_t>(m_sticky[static_cast<std::size_t>(d)].load());
}

void runtime::record_fault(int device, const kernel_fault& f) {
  int expected = cudaSuccess;
  m_sticky[static_cast<std::size_t>(device)].compare_exchange_strong(expected, f.error);
  const std::string text = "GPU " + std::to_string(device) + ": " + f.message;
  std::fprintf(stderr, "gpubench CUDA stand-in: device fault (%s): %s\n", cudaGetErrorName(f.error),
               text.c_str());
  const std::lock_guard lock(m_mutex);
  m_faults.push_back(text);
}

std::vector<std::string> runtime::faults() const {
  const std::lock_guard lock(m_mutex);
  return m_faults;
}

void runtime::delay_operation(int device) const {
  const auto delay = m_config.delay_of(device);
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
}

bool runtime::peer_enabled(int from, int to) const {
  return m_peer[static_cast<std::size_t>(from * m_config.devices + to)].load();
}

void runtime::set_peer_enabled(int from, int to, bool on) {
  m_peer[static_cast<std::size_t>(from * m_config.devices + to)].store(on);
  m_memory.bump();  // cached access checks are stale
}

std::string runtime::access_problem(int device, std::uintptr_t p, std::size_t n) const {
  const auto r = m_memory.find(p);
  const auto where = [p] { return hex(p); };  // formatted only for a refusal
  if (!r)
    return "address " + where() +
           " is neither device memory nor pinned host memory (pageable host memory, freed "
           "memory, or a pointer that was never valid)";
  if (!r->contains(p, n))
    return std::to_string(n) + " bytes at " + where() + " run past the end of their " +
           to_string(r->kind) + " of " + std::to_string(r->bytes) + " bytes";
  if (r->kind == memory_kind::device) {
    if (r->device == device || peer_enabled(device, r->device)) return {};
    return "address " + where() + " is GPU " + std::to_string(r->device) +
           "'s memory and peer access GPU " + std::to_string(device) + " -> GPU " +
           std::to_string(r->device) + " is not enabled";
  }
  if (!r->mapped) return "address " + where() + " is pinned host memory that is not mapped";
  if (!r->portable && r->device != device)
    return "address " + where() + " is pinned host memory of GPU " + std::to_string(r->device) +
           "'s context and not portable";
  return {};
}

CUstream_st* runtime::create_stream(int device) {
  auto s = std::make_unique<CUstream_st>();
  s->worker = std::make_unique<stream_worker>(*this, device, false);
  CUstream_st* raw = s.get();
  const std::lock_guard lock(m_mutex);
  m_streams.emplace(raw, std::move(s));
  return raw;
}

bool runtime::destroy_stream(cudaStream_t s) {
  std::unique_ptr<CUstream_st> owned;
  {
    const std::lock_guard lock(m_mutex);
    const auto it = m_streams.find(s);
    if (it == m_streams.end()) return false;
    owned = std::move(it->second);
    m_streams.erase(it);
  }
  return true;  // `owned` runs what is queued, then goes
}

stream_worker* runtime::worker_of(cudaStream_t s) {
  const std::lock_guard lock(m_mutex);
  if (s == nullptr) {
    const int d = current_device();
    auto& w = m_legacy[static_cast<std::size_t>(d)];
    if (!w) w = std::make_unique<stream_worker>(*this, d, true);
    return w.get();
  }
  const auto it = m_streams.find(s);
  return it == m_streams.end() ? nullptr : it->second->worker.get();
}

std::vector<stream_worker*> runtime::workers_of(int device) const {
  const std::lock_guard lock(m_mutex);
  std::vector<stream_worker*> out;
  for (const auto& [raw, s] : m_streams)
    if (s->worker->device() == device) out.push_back(s->worker.get());
  if (m_legacy[static_cast<std::size_t>(device)])
    out.push_back(m_legacy[static_cast<std::size_t>(device)].get());
  return out;
}

void runtime::synchronize_device(int d) {
  // Streams are not destroyed while their owner synchronises the device (the caller owns
  // both); a test that did so would be wrong in CUDA too.
  for (stream_worker* w : workers_of(d))
    w->synchronize();
}

bool runtime::device_busy(int d) const {
  for (const stream_worker* w : workers_of(d))
    if (!w->idle()) return true;
  return false;
}

CUevent_st* runtime::create_event(int device, bool timing) {
  auto e = std::make_unique<CUevent_st>();
  e->device = device;
  e->timing = timing;
  CUevent_st* raw = e.get();
  const std::lock_guard lock(m_event_mutex);
  m_events.emplace(raw, std::move(e));
  return raw;
}

bool runtime::destroy_event(cudaEvent_t e) {
  const std::lock_guard lock(m_event_mutex);
  return m_events.erase(e) == 1;
}

bool runtime::valid_event(cudaEvent_t e) const {
  const std::lock_guard lock(m_event_mutex);
  return m_events.count(e) == 1;
}

void runtime::event_reached(const void* stream, int device, stream_counts counts) {
  std::map<const void*, stream_counts> every;
  {
    const std::lock_guard lock(m_mutex);
    for (const auto& [raw, s] : m_streams)
      every[s->worker.get()] = s->worker->counts();
  }
  every[stream] = counts;  // also when it is being destroyed
  const std::lock_guard lock(m_event_mutex);
  m_reached.push_back({stream, device, counts, std::move(every)});
}

std::vector<reached_event> runtime::reached_events() const {
  const std::lock_guard lock(m_event_mutex);
  return m_reached;
}

void runtime::clear_reached_events() {
  const std::lock_guard lock(m_event_mutex);
  m_reached.clear();
}

bool runtime::kernel_loaded(int device, const void* kernel) const {
  const std::lock_guard lock(m_mutex);
  return m_kernels.count({device, kernel}) == 1;
}

void runtime::load_kernel(int device, const void* kernel) {
  const std::lock_guard lock(m_mutex);
  m_kernels.insert({device, kernel});
}

std::vector<std::string> runtime::leaks() const {
  std::vector<std::string> out;
  for (const auto& r : m_memory.live())
    out.push_back(to_string(r.kind) + " of " + std::to_string(r.bytes) + " bytes at " +
                  hex(r.base) + " (GPU " + std::to_string(r.device) + ") never freed");
  {
    const std::lock_guard lock(m_mutex);
    for (const auto& [raw, s] : m_streams)
      out.push_back("a stream of GPU " + std::to_string(s->worker->device()) + " never destroyed");
  }
  {
    const std::lock_guard lock(m_event_mutex);
    for (const auto& [raw, e] : m_events)
      out.push_back("an event of GPU " + std::to_string(e->device) + " never destroyed");
  }
  for (int a = 0; a < m_config.devices; ++a)
    for (int b = 0; b < m_config.devices; ++b)
      if (peer_enabled(a, b))
        out.push_back("peer access GPU " + std::to_string(a) + " -> GPU " + std::to_string(b) +
                      " left enabled");
  return out;
}

}  // namespace gpubench::tests::standin

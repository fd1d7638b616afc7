#include "transports/nccl/nccl_backend.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "core/units.hpp"
#include "transports/nccl/nccl_logic.hpp"

namespace gpubench::transports::nccl {

namespace {

ncclDataType_t to_nccl(dtype t) {
  switch (t) {
    case dtype::float32:
      return ncclFloat32;
    case dtype::float64:
      return ncclFloat64;
    case dtype::int32:
      return ncclInt32;
    case dtype::int64:
      return ncclInt64;
  }
  return ncclFloat32;
}

}  // namespace

gpu_backend::gpu_backend(const library& lib, const std::vector<int>& devices, int first_rank,
                         int nranks, dtype type, double stall_timeout_s)
    : m_lib(lib), m_type(type), m_nranks(nranks), m_stall_timeout_s(stall_timeout_s) {
  // The device is current before the stream, the buffers and the communicator exist:
  // otherwise every one of them lands on GPU 0.
  for (std::size_t i = 0; i < devices.size(); ++i) {
    gpu g;
    g.device = devices[i];
    g.rank = first_rank + static_cast<int>(i);
    g.stream = std::make_unique<cuda_stream>(g.device);
    m_gpus.push_back(std::move(g));
  }
}

void gpu_backend::init(const ncclUniqueId& id) {
  const bool grouped = m_gpus.size() > 1;
  try {
    if (grouped) m_lib.check(m_lib.fn().group_start(), "ncclGroupStart");
    for (auto& g : m_gpus) {
      cuda_check(cudaSetDevice(g.device), "cudaSetDevice(" + std::to_string(g.device) + ")");
      const ncclResult_t r = m_lib.fn().comm_init_rank(&g.comm, m_nranks, id, g.rank);
      if (!grouped)
        m_lib.check(
            r, fmt::format("ncclCommInitRank (rank {} of {}, GPU {})", g.rank, m_nranks, g.device));
    }
    if (grouped)
      m_lib.check(m_lib.fn().group_end(),
                  fmt::format("ncclCommInitRank of {} local GPUs (ncclGroupEnd)", m_gpus.size()));
  } catch (...) {
    // Communicators of a failed initialisation are aborted: ncclCommDestroy in the destructor
    // would wait for ranks that never came.
    abort_all();
    throw;
  }
}

gpu_backend::~gpu_backend() {
  // Only communicators that never failed are left here (abort_all clears the others):
  // ncclCommDestroy waits for their collectives, which all completed in wait_all.
  for (auto& g : m_gpus) {
    if (!g.comm) continue;
    cudaSetDevice(g.device);
    m_lib.fn().comm_destroy(g.comm);
  }
}

void gpu_backend::abort_all() noexcept {
  for (auto& g : m_gpus) {
    if (!g.comm) continue;
    cudaSetDevice(g.device);
    m_lib.fn().comm_abort(g.comm);
    g.comm = nullptr;  // freed by the abort: never touched again
  }
  m_aborted = true;
}

std::vector<int> gpu_backend::local_ranks() const {
  std::vector<int> out;
  for (const auto& g : m_gpus)
    out.push_back(g.rank);
  return out;
}

void gpu_backend::prepare(std::size_t send_bytes, std::size_t recv_bytes) {
  for (auto& g : m_gpus) {
    g.send = std::make_unique<device_buffer>(g.device, send_bytes);
    g.recv = std::make_unique<device_buffer>(g.device, recv_bytes);
    // cudaMemset ran on the legacy stream, which a non-blocking stream does not wait for.
    cuda_check(cudaDeviceSynchronize(), "clearing the buffers on GPU " + std::to_string(g.device));
  }
}

const device_buffer& gpu_backend::buffer(buffer_role role, std::size_t index,
                                         std::size_t bytes) const {
  if (index >= m_gpus.size())
    throw std::logic_error(fmt::format("NCCL buffer of local rank {}: this process drives {} GPUs",
                                       index, m_gpus.size()));
  const auto& b = role == buffer_role::send ? m_gpus[index].send : m_gpus[index].recv;
  if (!b || bytes > b->size())
    throw std::logic_error(fmt::format("NCCL buffer access of {} bytes on GPU {}: {} allocated",
                                       bytes, m_gpus[index].device, b ? b->size() : 0));
  return *b;
}

void gpu_backend::write(buffer_role role, std::size_t index, std::span<const std::byte> data) {
  const device_buffer& b = buffer(role, index, data.size());
  const gpu& g = m_gpus[index];
  cuda_check(cudaSetDevice(g.device), "cudaSetDevice");
  // On NCCL's own stream and waited for: the legacy stream's copies do not order with a
  // non-blocking stream, and a pageable copy may return before it has landed.
  const cudaStream_t st = g.stream->get();
  cuda_check(cudaMemcpyAsync(b.get(), data.data(), data.size(), cudaMemcpyHostToDevice, st),
             "copying check data to GPU " + std::to_string(g.device));
  cuda_check(cudaStreamSynchronize(st), "copying check data to GPU " + std::to_string(g.device));
}

void gpu_backend::read(buffer_role role, std::size_t index, std::span<std::byte> out) {
  const device_buffer& b = buffer(role, index, out.size());
  const gpu& g = m_gpus[index];
  cuda_check(cudaSetDevice(g.device), "cudaSetDevice");
  const cudaStream_t st = g.stream->get();
  cuda_check(cudaMemcpyAsync(out.data(), b.get(), out.size(), cudaMemcpyDeviceToHost, st),
             "copying the reduced data from GPU " + std::to_string(g.device));
  cuda_check(cudaStreamSynchronize(st),
             "copying the reduced data from GPU " + std::to_string(g.device));
}

void gpu_backend::wait_all(const std::string& what) {
  // Three quarters of the limit: the launch's watchdog, armed with the whole limit since the
  // last sign of progress, would otherwise end the job first, with no ncclCommAbort and no
  // reason for the case.
  const double limit = 0.75 * m_stall_timeout_s;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
  for (auto& g : m_gpus) {
    for (;;) {
      const cudaError_t e = cudaStreamQuery(g.stream->get());
      if (e == cudaSuccess) break;
      if (e != cudaErrorNotReady) {
        abort_all();
        cuda_check(e, what + " on GPU " + std::to_string(g.device));
      }
      ncclResult_t async = ncclSuccess;
      m_lib.check(m_lib.fn().comm_get_async_error(g.comm, &async), "ncclCommGetAsyncError");
      if (async != ncclSuccess) {
        abort_all();
        m_lib.check(async, what + " (asynchronous NCCL error, communicator aborted)");
      }
      if (std::chrono::steady_clock::now() > deadline) {
        abort_all();
        throw std::runtime_error(fmt::format(
            "{}: not complete after {:g} s (three quarters of --coll-timeout {:g} s); a peer "
            "rank died or hangs, communicator aborted",
            what, limit, m_stall_timeout_s));
      }
      std::this_thread::yield();
    }
  }
  // An operation may also end with its error already reported: a stream that drained is not
  // a collective that succeeded.
  for (auto& g : m_gpus) {
    ncclResult_t async = ncclSuccess;
    m_lib.check(m_lib.fn().comm_get_async_error(g.comm, &async), "ncclCommGetAsyncError");
    if (async != ncclSuccess) {
      abort_all();
      m_lib.check(async, what + " (asynchronous NCCL error, communicator aborted)");
    }
  }
}

ncclResult_t gpu_backend::enqueue(const call_args& args, const gpu& g) const {
  const api& f = m_lib.fn();
  const ncclDataType_t type = to_nccl(m_type);
  const std::size_t block = args.count * dtype_size(m_type);  // bytes of the call's count
  auto* send = static_cast<std::byte*>(g.send->get());
  auto* recv = static_cast<std::byte*>(g.recv->get());
  const cudaStream_t st = g.stream->get();
  const int n = m_nranks;
  switch (args.call) {
    case collective_call::allreduce_sum:
      return f.all_reduce(args.in_place ? recv : send, recv, args.count, type, ncclSum, g.comm, st);
    case collective_call::allgather:
      // In place, this rank's block is already at its place in the receive buffer.
      return f.all_gather(args.in_place ? recv + static_cast<std::size_t>(g.rank) * block : send,
                          recv, args.count, type, g.comm, st);
    case collective_call::reduce_scatter_sum:
      return f.reduce_scatter(send, recv, args.count, type, ncclSum, g.comm, st);
    case collective_call::broadcast:
      return f.broadcast(args.in_place ? recv : send, recv, args.count, type, 0, g.comm, st);
    case collective_call::alltoall:
    case collective_call::sendrecv: {
      // Point-to-point calls of one operation are one group (nested in the caller's when one
      // process drives several GPUs), or a send and its receive would wait for each other.
      if (const ncclResult_t r = f.group_start(); r != ncclSuccess) return r;
      ncclResult_t r = ncclSuccess;
      if (args.call == collective_call::alltoall) {
        for (int peer = 0; peer < n && r == ncclSuccess; ++peer) {
          const std::size_t at = static_cast<std::size_t>(peer) * block;
          r = f.send(send + at, args.count, type, peer, g.comm, st);
          if (r == ncclSuccess) r = f.recv(recv + at, args.count, type, peer, g.comm, st);
        }
      } else {
        r = f.send(send, args.count, type, (g.rank + 1) % n, g.comm, st);
        if (r == ncclSuccess) r = f.recv(recv, args.count, type, (g.rank + n - 1) % n, g.comm, st);
      }
      const ncclResult_t end = f.group_end();
      return r != ncclSuccess ? r : end;
    }
  }
  return ncclInvalidArgument;
}

double gpu_backend::run(const call_args& args, int iters) {
  const std::string call = nccl_call_name(args.call);
  if (m_aborted)
    throw std::logic_error(call + " on communicators aborted after an earlier failure");
  const std::string what =
      fmt::format("{} of {} over {} ranks", call,
                  core::format_bytes(args.count * dtype_size(m_type)), m_nranks);
  const bool grouped = m_gpus.size() > 1;
  try {
    // No synchronisation between the calls: the time is from the first enqueue to the end
    // of the last collective on every stream.
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) {
      if (grouped) m_lib.check(m_lib.fn().group_start(), "ncclGroupStart");
      for (const auto& g : m_gpus) {
        const ncclResult_t r = enqueue(args, g);
        if (!grouped) m_lib.check(r, what);
      }
      if (grouped) m_lib.check(m_lib.fn().group_end(), what + " (ncclGroupEnd)");
    }
    wait_all(what);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } catch (...) {
    // Collectives enqueued before the failure may never complete (a peer is gone): the
    // destructor's ncclCommDestroy would wait for them forever, ncclCommAbort does not.
    abort_all();
    throw;
  }
}

nlohmann::json gpu_backend::describe(collective_call call) const {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& g : m_gpus) {
    cudaDeviceProp prop{};
    nlohmann::json d = {{"device", g.device}, {"rank", g.rank}};
    if (cudaGetDeviceProperties(&prop, g.device) == cudaSuccess) {
      d["name"] = prop.name;
      d["pci_bus_id"] =
          fmt::format("{:04x}:{:02x}:{:02x}.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
    }
    devices.push_back(std::move(d));
  }
  return {{"buffers", "cuda"},
          {"call", nccl_call_name(call)},
          {"nccl_runtime", nccl_version_text(m_lib.version_code())},
          {"nccl_compiled", nccl_version_text(NCCL_VERSION_CODE)},
          {"library", m_lib.path()},
          {"devices", devices}};
}

}  // namespace gpubench::transports::nccl

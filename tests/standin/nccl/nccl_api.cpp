// The stand-in NCCL's C API: the calls gpubench makes, with nccl.h's signatures, loaded by
// dlopen as the real library is. Collectives run on the stand-in CUDA runtime's streams
// (cudaLaunchHostFunc) and move data between ranks in separate processes through shared
// memory. Groups defer initialisation and operations to ncclGroupEnd, as NCCL does.
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "comm.hpp"
#include "debug_log.hpp"
#include "operation.hpp"

#define STANDIN_API __attribute__((visibility("default")))

namespace nccl = gpubench::tests::standin::nccl;

namespace {

constexpr char id_magic[] = "gpubench-standin-nccl:";

struct pending {
  ncclComm* comm = nullptr;
  bool init = false;
  std::unique_ptr<nccl::operation> op;
  cudaStream_t stream = nullptr;
};

// NCCL's group state is per thread.
struct group_state {
  int depth = 0;
  std::vector<pending> work;
  ncclResult_t error = ncclSuccess;
};

group_state& group() {
  thread_local group_state g;
  return g;
}

std::chrono::milliseconds env_ms(const char* name, long long fallback) {
  const char* v = std::getenv(name);
  return std::chrono::milliseconds(v ? std::atoll(v) : fallback);
}

std::size_t slot_bytes() {
  const char* v = std::getenv("GPUBENCH_STANDIN_NCCL_BYTES");
  return v ? static_cast<std::size_t>(std::atoll(v)) : std::size_t{8} << 20;
}

ncclResult_t warn(int device, ncclResult_t r, const std::string& why) {
  nccl::log_warn(device, why);
  return r;
}

// The rendezvous of ncclCommInitRank: join, then wait for every rank, at most
// GPUBENCH_STANDIN_NCCL_INIT_MS (default 30 s).
ncclResult_t meet(ncclComm& c) {
  if (c.fault && c.fault->kind == nccl::fault_kind::never_join) {
    nccl::log_info(c.device, "fault switch: rank " + std::to_string(c.rank) + " never joins");
  } else {
    c.shared->join();
  }
  const auto timeout = env_ms("GPUBENCH_STANDIN_NCCL_INIT_MS", 30000);
  std::vector<int> missing;
  auto f = c.shared->wait(
      [&] {
        missing.clear();
        for (int r = 0; r < c.nranks; ++r)
          if (!c.shared->state(r).joined.load()) missing.push_back(r);
        return missing.empty();
      },
      c.aborting, timeout, "ncclCommInitRank");
  if (f) {
    std::string list;
    for (const int r : missing)
      list += (list.empty() ? "" : ", ") + std::to_string(r);
    c.shared->unlink();
    return warn(c.device, f.remote ? ncclRemoteError : ncclSystemError,
                "ncclCommInitRank: rank " + std::to_string(c.rank) + " of " +
                    std::to_string(c.nranks) + ": rank(s) " + list +
                    " never joined the communicator (" + f.what + ")");
  }
  c.shared->unlink();  // every rank has it mapped: nothing left in /dev/shm
  c.ready = true;
  nccl::log_info(c.device, "comm " + std::to_string(reinterpret_cast<std::uintptr_t>(&c)) +
                               " rank " + std::to_string(c.rank) + " nranks " +
                               std::to_string(c.nranks) + " cudaDev " + std::to_string(c.device) +
                               " - Init COMPLETE");
  return ncclSuccess;
}

void run_on_stream(void* p) {
  std::unique_ptr<std::pair<ncclComm*, nccl::operation>> job(
      static_cast<std::pair<ncclComm*, nccl::operation>*>(p));
  ncclComm& c = *job->first;
  nccl::execute(c, job->second);
  const std::lock_guard lock(c.mutex);
  if (--c.in_flight == 0) c.idle.notify_all();
}

// Queues `op` on `stream` after checking what NCCL checks at the call.
ncclResult_t launch(ncclComm* c, std::unique_ptr<nccl::operation> op, cudaStream_t stream) {
  auto job = std::make_unique<std::pair<ncclComm*, nccl::operation>>(c, std::move(*op));
  job->second.seq = ++c->seq;
  {
    const std::lock_guard lock(c->mutex);
    ++c->in_flight;
  }
  if (const cudaError_t e = cudaLaunchHostFunc(stream, run_on_stream, job.get());
      e != cudaSuccess) {
    const std::lock_guard lock(c->mutex);
    --c->in_flight;
    return warn(c->device, ncclUnhandledCudaError,
                std::string("Cuda failure '") + cudaGetErrorString(e) + "'");
  }
  job.release();  // run_on_stream owns it now
  return ncclSuccess;
}

// NCCL's argument checks: buffers in device memory of the communicator's GPU, the stream on
// that GPU.
ncclResult_t check_buffer(const ncclComm* c, const void* p, std::size_t bytes, const char* name,
                          const std::string& call) {
  if (bytes == 0) return ncclSuccess;
  cudaPointerAttributes a{};
  if (!p || cudaPointerGetAttributes(&a, p) != cudaSuccess || a.type != cudaMemoryTypeDevice ||
      a.device != c->device)
    return warn(
        c->device, ncclInvalidArgument,
        call + " : " + name + " is not device memory of the communicator's GPU " +
            std::to_string(c->device) +
            (a.type == cudaMemoryTypeDevice ? " (GPU " + std::to_string(a.device) + "'s)" : ""));
  // The kernel's reach: out of the buffer is an illegal address on a GPU.
  char why[512] = {};
  if (gpubench_standin_access_problem(c->device, p, bytes, why, sizeof why) != 0)
    return warn(c->device, ncclInvalidArgument,
                call + " : " + name + " of " + std::to_string(bytes) + " bytes: " + why);
  return ncclSuccess;
}

ncclResult_t check_call(const ncclComm* c, const nccl::operation& op, cudaStream_t stream) {
  const std::string call = nccl::to_string(op.code);
  if (!c || !c->shared) return ncclInvalidArgument;
  if (!c->ready) return warn(c->device, ncclInvalidUsage, call + " : communicator not initialised");
  const std::size_t esize = nccl::type_size(op.type);
  if (esize == 0 || !nccl::supported_reduction(op.red))
    return warn(c->device, ncclInvalidArgument,
                call + " : data type or reduction not implemented by the stand-in");
  int stream_device = -1;
  if (cudaStreamGetDevice(stream, &stream_device) != cudaSuccess || stream_device != c->device)
    return warn(c->device, ncclInvalidArgument,
                call + " : the stream is GPU " + std::to_string(stream_device) +
                    "'s, the communicator's GPU is " + std::to_string(c->device));
  const std::size_t block = op.count * esize;
  const auto n = static_cast<std::size_t>(c->nranks);
  std::size_t send = block, recv = block;
  if (op.code == nccl::op_code::all_gather) recv = block * n;
  if (op.code == nccl::op_code::reduce_scatter) send = block * n;
  if (op.code == nccl::op_code::broadcast && c->rank != op.root) send = 0;
  if (op.code == nccl::op_code::point_to_point) {
    for (const auto& p : op.parts) {
      if (p.peer < 0 || p.peer >= c->nranks)
        return warn(c->device, ncclInvalidArgument, call + " : peer " + std::to_string(p.peer));
      if (auto r = check_buffer(c, p.buffer, p.bytes, p.send ? "sendbuff" : "recvbuff", call))
        return r;
    }
    return ncclSuccess;
  }
  if (auto r = check_buffer(c, op.send, send, "sendbuff", call)) return r;
  return check_buffer(c, op.recv, recv, "recvbuff", call);
}

ncclResult_t submit(ncclComm* c, std::unique_ptr<nccl::operation> op, cudaStream_t stream) {
  group_state& g = group();
  if (const ncclResult_t r = check_call(c, *op, stream); r != ncclSuccess) {
    // As NCCL: a call that fails in a group fails the group; ncclGroupEnd launches none of it.
    if (g.depth > 0 && g.error == ncclSuccess) g.error = r;
    return r;
  }
  if (g.depth == 0) return launch(c, std::move(op), stream);
  // A communicator's sends and receives of one group are one exchange, where its first is.
  if (op->code == nccl::op_code::point_to_point)
    for (auto& w : g.work)
      if (w.comm == c && w.op && w.op->code == nccl::op_code::point_to_point) {
        if (w.stream != stream)
          return warn(c->device, ncclInvalidUsage,
                      "ncclSend/ncclRecv of one group on two streams (not in the stand-in)");
        w.op->parts.insert(w.op->parts.end(), op->parts.begin(), op->parts.end());
        return ncclSuccess;
      }
  g.work.push_back({c, false, std::move(op), stream});
  return ncclSuccess;
}

}  // namespace

extern "C" {

STANDIN_API ncclResult_t ncclGetVersion(int* version) {
  if (!version) return ncclInvalidArgument;
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

STANDIN_API ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  if (!id) return ncclInvalidArgument;
  std::random_device rd;
  static const char digits[] = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 24; ++i)
    token += digits[rd() % 16];
  std::memset(id->internal, 0, sizeof id->internal);
  std::snprintf(id->internal, sizeof id->internal, "%s%s", id_magic, token.c_str());
  return ncclSuccess;
}

STANDIN_API ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  if (!comm) return ncclInvalidArgument;
  *comm = nullptr;
  int device = 0;
  cudaGetDevice(&device);
  const std::string text(id.internal, ::strnlen(id.internal, sizeof id.internal));
  if (text.rfind(id_magic, 0) != 0)
    return warn(device, ncclInvalidArgument,
                "ncclCommInitRank: not a unique id of ncclGetUniqueId (rank " +
                    std::to_string(rank) + " got bytes that are no id: was it broadcast?)");
  // NCCL opens the device's context here: refused under EXCLUSIVE_PROCESS when another
  // process holds the GPU.
  if (const cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
    return warn(device, ncclUnhandledCudaError,
                std::string("Cuda failure 'cudaSetDevice': ") + cudaGetErrorString(e));
  auto c = std::make_unique<ncclComm>();
  c->token = text.substr(sizeof id_magic - 1);
  c->rank = rank;
  c->nranks = nranks;
  c->device = device;
  try {
    const char* f = std::getenv("GPUBENCH_STANDIN_NCCL_FAULT");
    if (auto parsed = nccl::parse_fault(f ? f : ""); parsed && parsed->rank == rank)
      c->fault = parsed;
    c->shared = std::make_unique<nccl::shared_comm>(c->token, nranks, rank, slot_bytes());
  } catch (const std::exception& e) {
    return warn(device, ncclInvalidArgument, std::string("ncclCommInitRank: ") + e.what());
  }
  group_state& g = group();
  if (g.depth > 0) {
    *comm = c.get();
    g.work.push_back({c.release(), true, nullptr, nullptr});
    return ncclSuccess;
  }
  if (const ncclResult_t r = meet(*c); r != ncclSuccess) return r;
  *comm = c.release();
  return ncclSuccess;
}

STANDIN_API ncclResult_t ncclGroupStart() {
  ++group().depth;
  return ncclSuccess;
}

STANDIN_API ncclResult_t ncclGroupEnd() {
  group_state& g = group();
  if (g.depth == 0)
    return warn(-1, ncclInvalidUsage, "ncclGroupEnd: not in a group (no ncclGroupStart)");
  if (--g.depth > 0) return ncclSuccess;
  std::vector<pending> work;
  work.swap(g.work);
  ncclResult_t result = g.error;
  g.error = ncclSuccess;
  if (result != ncclSuccess) {
    nccl::log_warn(-1, "ncclGroupEnd: a call of the group failed; none of its operations run");
    std::erase_if(work, [](const pending& w) { return !w.init; });
  }
  // Every communicator of the group joins before any waits: one thread initialises them all.
  for (auto& w : work)
    if (w.init && !(w.comm->fault && w.comm->fault->kind == nccl::fault_kind::never_join))
      w.comm->shared->join();
  for (auto& w : work) {
    if (w.init) {
      if (const ncclResult_t r = meet(*w.comm); r != ncclSuccess && result == ncclSuccess)
        result = r;
    } else if (const ncclResult_t r = launch(w.comm, std::move(w.op), w.stream);
               r != ncclSuccess && result == ncclSuccess) {
      result = r;
    }
  }
  return result;
}

STANDIN_API ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* error) {
  if (!comm || !error) return ncclInvalidArgument;
  *error = static_cast<ncclResult_t>(comm->async.load());
  return ncclSuccess;
}

// Waits for what is on the stream (an abort first tells it to give up), then frees.
static ncclResult_t release(ncclComm_t comm, bool abort) {
  if (!comm) return ncclSuccess;
  std::unique_ptr<ncclComm> owned(comm);
  ncclResult_t result = ncclSuccess;
  group_state& g = group();
  for (auto& w : g.work) {
    if (w.comm != comm) continue;
    if (!w.init)
      result = warn(comm->device, ncclInvalidUsage,
                    "communicator of rank " + std::to_string(comm->rank) +
                        " released with operations of an open group never launched "
                        "(no ncclGroupEnd)");
    w.comm = nullptr;  // nothing of the group touches it after this
  }
  std::erase_if(g.work, [](const pending& w) { return w.comm == nullptr; });
  if (abort) {
    comm->aborting.store(true);
    if (comm->shared) comm->shared->mark_aborted();
  }
  std::unique_lock lock(comm->mutex);
  comm->idle.wait(lock, [&] { return comm->in_flight == 0; });
  if (abort)
    nccl::log_info(comm->device, "comm " + std::to_string(reinterpret_cast<std::uintptr_t>(comm)) +
                                     " rank " + std::to_string(comm->rank) + " nranks " +
                                     std::to_string(comm->nranks) + " cudaDev " +
                                     std::to_string(comm->device) + " - Abort COMPLETE");
  return result;
}

STANDIN_API ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  return release(comm, false);
}

STANDIN_API ncclResult_t ncclCommAbort(ncclComm_t comm) {
  return release(comm, true);
}

STANDIN_API ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count,
                                       ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                       cudaStream_t stream) {
  auto o = std::make_unique<nccl::operation>();
  *o = {nccl::op_code::all_reduce, sendbuff, recvbuff, count, datatype, op, 0, {}, 0};
  return submit(comm, std::move(o), stream);
}

STANDIN_API ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount,
                                       ncclDataType_t datatype, ncclComm_t comm,
                                       cudaStream_t stream) {
  auto o = std::make_unique<nccl::operation>();
  *o = {nccl::op_code::all_gather, sendbuff, recvbuff, sendcount, datatype, ncclSum, 0, {}, 0};
  return submit(comm, std::move(o), stream);
}

STANDIN_API ncclResult_t ncclReduceScatter(const void* sendbuff, void* recvbuff, size_t recvcount,
                                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                           cudaStream_t stream) {
  auto o = std::make_unique<nccl::operation>();
  *o = {nccl::op_code::reduce_scatter, sendbuff, recvbuff, recvcount, datatype, op, 0, {}, 0};
  return submit(comm, std::move(o), stream);
}

STANDIN_API ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count,
                                       ncclDataType_t datatype, int root, ncclComm_t comm,
                                       cudaStream_t stream) {
  auto o = std::make_unique<nccl::operation>();
  *o = {nccl::op_code::broadcast, sendbuff, recvbuff, count, datatype, ncclSum, root, {}, 0};
  if (comm && (root < 0 || root >= comm->nranks))
    return warn(comm->device, ncclInvalidArgument, "ncclBroadcast : root " + std::to_string(root));
  return submit(comm, std::move(o), stream);
}

static ncclResult_t point_to_point(bool send, void* buff, size_t count, ncclDataType_t datatype,
                                   int peer, ncclComm_t comm, cudaStream_t stream) {
  auto o = std::make_unique<nccl::operation>();
  o->code = nccl::op_code::point_to_point;
  o->type = datatype;
  o->parts.push_back({send, buff, count * nccl::type_size(datatype), peer});
  return submit(comm, std::move(o), stream);
}

STANDIN_API ncclResult_t ncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype,
                                  int peer, ncclComm_t comm, cudaStream_t stream) {
  return point_to_point(true, const_cast<void*>(sendbuff), count, datatype, peer, comm, stream);
}

STANDIN_API ncclResult_t ncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype, int peer,
                                  ncclComm_t comm, cudaStream_t stream) {
  return point_to_point(false, recvbuff, count, datatype, peer, comm, stream);
}

STANDIN_API const char* ncclGetErrorString(ncclResult_t result) {
  switch (result) {
    case ncclSuccess:
      return "no error";
    case ncclUnhandledCudaError:
      return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError:
      return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError:
      return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument:
      return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage:
      return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError:
      return "remote process exited or there was a network error";
    case ncclInProgress:
      return "NCCL operation in progress";
    default:
      return "unknown result code";
  }
}

}  // extern "C"

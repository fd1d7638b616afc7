// The interface of a collective backend (MPI on host buffers, NCCL on GPU buffers): its
// communicator, its buffers, and the library calls it can time. The benchmarks in
// benchmarks/collectives/ say which call an operation is; the backends make it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::transports {

enum class dtype { float32, float64, int32, int64 };

std::string to_string(dtype t);
std::size_t dtype_size(dtype t);

// The library calls a backend makes, one per collective: a new collective adds its call here
// and in each backend. The count a call is given (call_args::count) is the library's own: the
// whole buffer for allreduce and broadcast, one rank's block for all-gather, reduce-scatter
// and all-to-all (per peer), the message for send/recv. Broadcast's root is rank 0; send/recv
// is a ring shift (each rank sends to the next rank and receives from the previous one).
enum class collective_call {
  allreduce_sum,
  allgather,
  reduce_scatter_sum,
  alltoall,
  broadcast,
  sendrecv
};

// The backends' name of the call ("ncclAllReduce", "MPI_Allreduce"), for a case's context.
std::string nccl_call_name(collective_call c);
std::string mpi_call_name(collective_call c);

// One timed call: `count` elements as the library counts them; in place: the receive buffer
// is also the send buffer.
struct call_args {
  collective_call call = collective_call::allreduce_sum;
  std::uint64_t count = 0;
  bool in_place = false;
};

enum class buffer_role { send, recv };

// Called with the work now under way (a watchdog's heartbeat). May be empty.
using progress_fn = std::function<void(const std::string&)>;

class collective_backend {
 public:
  virtual ~collective_backend() = default;
  // Ranks of the communicator under test (the n of the bus factor), over all processes.
  virtual int ranks() const = 0;
  // The communicator ranks whose buffers this process holds, in buffer-index order: one
  // under MPI, every local GPU when one process drives them all.
  virtual std::vector<int> local_ranks() const = 0;
  // Allocates, for each local rank, a send and a receive buffer of these sizes, zeroed.
  virtual void prepare(std::size_t send_bytes, std::size_t recv_bytes) = 0;
  // Copies host bytes into (out of) the buffer of the `index`-th local rank, complete on
  // return: the data check's way in and out, never timed.
  virtual void write(buffer_role role, std::size_t index, std::span<const std::byte> data) = 0;
  virtual void read(buffer_role role, std::size_t index, std::span<std::byte> out) = 0;
  // Runs `iters` calls back to back (no synchronisation between them) and returns the
  // seconds from the first call to the completion of the last, on this process.
  virtual double run(const call_args& args, int iters) = 0;
  // As run(), and each call's own seconds on this process in `per_call` (call i from the
  // return of call i-1 to its own), where the backend can time them without disturbing the
  // stream (no synchronisation between calls); a backend that cannot leaves it empty.
  virtual double run_each(const call_args& args, int iters, std::vector<double>& per_call) {
    per_call.clear();
    return run(args, iters);
  }
  // Devices, library version, the library's name of `call`, ... for the case's context.
  virtual nlohmann::json describe(collective_call call) const = 0;
};

}  // namespace gpubench::transports

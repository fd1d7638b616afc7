// The NCCL backend: NCCL collectives (ncclAllReduce, sum) on GPU buffers, one communicator
// rank per GPU; a process drives one GPU under MPI, or every local GPU when it runs alone.
#pragma once

#include <memory>
#include <vector>

#include "transports/collective_backend.hpp"
#include "transports/nccl/cuda_resources.hpp"
#include "transports/nccl/nccl_library.hpp"

namespace gpubench::transports::nccl {

class gpu_backend final : public collective_backend {
 public:
  // `devices[i]` becomes communicator rank first_rank + i of `nranks`. Opens each device and
  // makes its stream, no NCCL yet: a rank that fails here says so before any rank waits in
  // NCCL's initialisation for it.
  gpu_backend(const library& lib, const std::vector<int>& devices, int first_rank, int nranks,
              dtype type, double stall_timeout_s);
  // Initialises NCCL (grouped when several devices); every rank passes the same `id`.
  void init(const ncclUniqueId& id);
  ~gpu_backend() override;

  int ranks() const override { return m_nranks; }
  std::vector<int> local_ranks() const override;
  void prepare(std::size_t send_bytes, std::size_t recv_bytes) override;
  void write(buffer_role role, std::size_t index, std::span<const std::byte> data) override;
  void read(buffer_role role, std::size_t index, std::span<std::byte> out) override;
  double run(const call_args& args, int iters) override;
  nlohmann::json describe(collective_call call) const override;

 private:
  struct gpu {
    int device = 0;
    int rank = 0;
    std::unique_ptr<cuda_stream> stream;
    std::unique_ptr<device_buffer> send, recv;
    ncclComm_t comm = nullptr;
  };
  const device_buffer& buffer(buffer_role role, std::size_t index, std::size_t bytes) const;
  // One call of `args` on one GPU's communicator and stream.
  ncclResult_t enqueue(const call_args& args, const gpu& g) const;
  // Waits until every stream has drained, watching NCCL's asynchronous errors and the
  // deadline; aborts the communicators on either.
  void wait_all(const std::string& what);
  // ncclCommAbort of every communicator still held (each then cleared), on every error path
  // where collectives may be in flight; the destructor destroys only the ones left.
  void abort_all() noexcept;

  const library& m_lib;
  dtype m_type;
  int m_nranks;
  double m_stall_timeout_s;
  bool m_aborted = false;
  std::vector<gpu> m_gpus;
};

}  // namespace gpubench::transports::nccl

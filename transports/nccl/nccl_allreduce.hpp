// The NCCL backend: ncclAllReduce (sum) on GPU buffers, one communicator rank per GPU; a
// process drives one GPU under MPI, or every local GPU when it runs alone.
#pragma once

#include <memory>
#include <vector>

#include "transports/collective/allreduce_backend.hpp"
#include "transports/collective/allreduce_math.hpp"
#include "transports/nccl/cuda_resources.hpp"
#include "transports/nccl/nccl_library.hpp"

namespace gpubench::coll::nccl {

class allreduce final : public allreduce_backend {
 public:
  // `devices[i]` becomes communicator rank first_rank + i of `nranks`; every rank of the
  // communicator passes the same `id`. Initialises NCCL (grouped when several devices).
  allreduce(const library& lib, const std::vector<int>& devices, int first_rank, int nranks,
            const ncclUniqueId& id, dtype type, double stall_timeout_s);
  ~allreduce() override;

  int ranks() const override { return m_nranks; }
  void prepare(std::uint64_t max_count) override;
  void fill_check(std::uint64_t count, std::uint32_t seed) override;
  std::uint64_t count_wrong(std::uint64_t count, std::uint32_t seed) override;
  double run(std::uint64_t count, int iters, bool in_place) override;
  nlohmann::json describe() const override;

 private:
  struct gpu {
    int device = 0;
    int rank = 0;
    std::unique_ptr<cuda_stream> stream;
    std::unique_ptr<device_buffer> send, recv;
    ncclComm_t comm = nullptr;
  };
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

}  // namespace gpubench::coll::nccl

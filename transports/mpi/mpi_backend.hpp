// The MPI backend: MPI collectives (MPI_Allreduce, sum) on host buffers, so the network's own
// scaling is measured on any cluster, GPU or not.
#pragma once

#include <vector>

#include "transports/collective_backend.hpp"
#include "transports/mpi/mpi_comm.hpp"

namespace gpubench::transports::mpi {

class host_backend final : public collective_backend {
 public:
  host_backend(MPI_Comm c, dtype type);
  int ranks() const override { return m_size; }
  std::vector<int> local_ranks() const override { return {m_rank}; }
  void prepare(std::size_t send_bytes, std::size_t recv_bytes) override;
  void write(buffer_role role, std::size_t index, std::span<const std::byte> data) override;
  void read(buffer_role role, std::size_t index, std::span<std::byte> out) override;
  double run(const call_args& args, int iters) override;
  // Each call timed on the host clock between calls (a clock read, no synchronisation).
  double run_each(const call_args& args, int iters, std::vector<double>& per_call) override;
  nlohmann::json describe(collective_call call) const override;

 private:
  std::vector<std::byte>& buffer(buffer_role role, std::size_t index, std::size_t bytes);
  // One library call; throws with the call, size and ranks on an MPI error.
  void call_once(const call_args& args);

  MPI_Comm m_comm;
  dtype m_type;
  MPI_Datatype m_mpi_type;
  int m_rank = 0;
  int m_size = 1;
  std::vector<std::byte> m_send, m_recv;
};

}  // namespace gpubench::transports::mpi

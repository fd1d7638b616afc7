// The MPI backend: MPI_Allreduce (sum) on host buffers, so the network's own scaling is
// measured on any cluster, GPU or not.
#pragma once

#include <vector>

#include "transports/collective/allreduce_backend.hpp"
#include "transports/collective/allreduce_math.hpp"
#include "transports/mpi/mpi_comm.hpp"

namespace gpubench::coll::mpi {

class host_allreduce final : public allreduce_backend {
 public:
  host_allreduce(MPI_Comm c, dtype type);
  int ranks() const override { return m_size; }
  void prepare(std::uint64_t max_count) override;
  void fill_check(std::uint64_t count, std::uint32_t seed) override;
  std::uint64_t count_wrong(std::uint64_t count, std::uint32_t seed) override;
  double run(std::uint64_t count, int iters, bool in_place) override;
  nlohmann::json describe() const override;

 private:
  MPI_Comm m_comm;
  dtype m_type;
  MPI_Datatype m_mpi_type;
  int m_rank = 0;
  int m_size = 1;
  std::vector<std::byte> m_send, m_recv;
};

}  // namespace gpubench::coll::mpi

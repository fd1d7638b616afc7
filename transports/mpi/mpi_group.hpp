// The process_group of an MPI communicator: the barrier, time reduction and collective
// stopping decision of the driver, as MPI calls on the communicator under test.
#pragma once

#include "transports/mpi/mpi_comm.hpp"
#include "transports/process_group.hpp"

namespace gpubench::transports::mpi {

class group final : public process_group {
 public:
  explicit group(MPI_Comm c);
  int rank() const override { return m_rank; }
  int size() const override { return m_size; }
  void barrier() override;
  rank_times reduce_time(double seconds) override;
  std::uint64_t sum(std::uint64_t value) override;
  bool any(bool value) override;
  std::uint32_t any_bits(std::uint32_t bits) override;
  void broadcast(std::span<std::byte> data, int root) override;
  std::vector<std::byte> allgather(std::span<const std::byte> mine) override;
  MPI_Comm get() const { return m_comm; }

 private:
  MPI_Comm m_comm;
  int m_rank = 0;
  int m_size = 1;
};

}  // namespace gpubench::transports::mpi

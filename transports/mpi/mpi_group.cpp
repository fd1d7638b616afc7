#include "transports/mpi/mpi_group.hpp"

#include <limits>
#include <stdexcept>

namespace gpubench::transports::mpi {

group::group(MPI_Comm c) : m_comm(c) {
  check(MPI_Comm_rank(c, &m_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(c, &m_size), "MPI_Comm_size");
}

void group::barrier() {
  check(MPI_Barrier(m_comm), "MPI_Barrier before a sample");
}

rank_times group::reduce_time(double seconds) {
  // Sum for the average; max of (t, -t) gives max and min in one call.
  double sum = 0;
  check(MPI_Allreduce(&seconds, &sum, 1, MPI_DOUBLE, MPI_SUM, m_comm),
        "MPI_Allreduce of sample times");
  double in[2] = {seconds, -seconds};
  double out[2] = {0, 0};
  check(MPI_Allreduce(in, out, 2, MPI_DOUBLE, MPI_MAX, m_comm), "MPI_Allreduce of sample times");
  return {sum / m_size, -out[1], out[0]};
}

std::uint64_t group::sum(std::uint64_t value) {
  std::uint64_t out = 0;
  check(MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_SUM, m_comm), "MPI_Allreduce (sum)");
  return out;
}

bool group::any(bool value) {
  int in = value ? 1 : 0, out = 0;
  check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, m_comm),
        "MPI_Allreduce of the stop decision");
  return out != 0;
}

std::uint32_t group::any_bits(std::uint32_t bits) {
  std::uint32_t out = 0;
  check(MPI_Allreduce(&bits, &out, 1, MPI_UINT32_T, MPI_BOR, m_comm),
        "MPI_Allreduce of the members' votes");
  return out;
}

void group::broadcast(std::span<std::byte> data, int root) {
  if (data.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("broadcast of more than 2 GiB");
  check(MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_BYTE, root, m_comm), "MPI_Bcast");
}

std::vector<std::byte> group::allgather(std::span<const std::byte> mine) {
  if (mine.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("allgather of more than 2 GiB per rank");
  std::vector<std::byte> all(mine.size() * static_cast<std::size_t>(m_size));
  const int n = static_cast<int>(mine.size());
  check(MPI_Allgather(mine.data(), n, MPI_BYTE, all.data(), n, MPI_BYTE, m_comm), "MPI_Allgather");
  return all;
}

}  // namespace gpubench::transports::mpi

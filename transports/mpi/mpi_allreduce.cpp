#include "transports/mpi/mpi_allreduce.hpp"

#include <chrono>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "transports/mpi/mpi_session.hpp"

namespace gpubench::coll::mpi {

namespace {

MPI_Datatype to_mpi(dtype t) {
  switch (t) {
    case dtype::float32:
      return MPI_FLOAT;
    case dtype::float64:
      return MPI_DOUBLE;
    case dtype::int32:
      return MPI_INT32_T;
    case dtype::int64:
      return MPI_INT64_T;
  }
  return MPI_FLOAT;
}

}  // namespace

host_allreduce::host_allreduce(MPI_Comm c, dtype type)
    : m_comm(c), m_type(type), m_mpi_type(to_mpi(type)) {
  check(MPI_Comm_rank(c, &m_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(c, &m_size), "MPI_Comm_size");
}

void host_allreduce::prepare(std::uint64_t max_count) {
  if (max_count > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw core::usage_error(
        fmt::format("MPI allreduce of {} elements: MPI counts stop at 2^31-1", max_count));
  const std::size_t bytes = max_count * dtype_size(m_type);
  // Zeros, touched: first-touch page faults stay out of the timed samples.
  m_send.assign(bytes, std::byte{0});
  m_recv.assign(bytes, std::byte{0});
}

void host_allreduce::fill_check(std::uint64_t count, std::uint32_t seed) {
  const std::size_t bytes = count * dtype_size(m_type);
  coll::fill_check(std::span(m_send).first(bytes), m_type, m_rank, seed);
  coll::fill_check(std::span(m_recv).first(bytes), m_type, m_rank, seed);
}

std::uint64_t host_allreduce::count_wrong(std::uint64_t count, std::uint32_t seed) {
  const std::size_t bytes = count * dtype_size(m_type);
  return coll::count_wrong(std::span<const std::byte>(m_recv).first(bytes), m_type, m_size, seed);
}

double host_allreduce::run(std::uint64_t count, int iters, bool in_place) {
  const int n = static_cast<int>(count);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    const int rc = MPI_Allreduce(in_place ? MPI_IN_PLACE : m_send.data(), m_recv.data(), n,
                                 m_mpi_type, MPI_SUM, m_comm);
    if (rc != MPI_SUCCESS)
      check(rc, fmt::format("MPI_Allreduce of {} over {} ranks",
                            core::format_bytes(count * dtype_size(m_type)), m_size));
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

nlohmann::json host_allreduce::describe() const {
  return {{"buffers", "host"}, {"library", library_version()}, {"call", "MPI_Allreduce"}};
}

}  // namespace gpubench::coll::mpi

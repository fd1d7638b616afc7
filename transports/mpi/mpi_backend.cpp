#include "transports/mpi/mpi_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "transports/mpi/mpi_session.hpp"

namespace gpubench::transports::mpi {

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

// The tag of send/recv's messages (the benchmark's communicator carries nothing else).
constexpr int sendrecv_tag = 11;

}  // namespace

host_backend::host_backend(MPI_Comm c, dtype type)
    : m_comm(c), m_type(type), m_mpi_type(to_mpi(type)) {
  check(MPI_Comm_rank(c, &m_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(c, &m_size), "MPI_Comm_size");
}

void host_backend::prepare(std::size_t send_bytes, std::size_t recv_bytes) {
  const std::size_t max_count = std::max(send_bytes, recv_bytes) / dtype_size(m_type);
  if (max_count > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw core::usage_error(
        fmt::format("MPI buffers of {} elements: MPI counts stop at 2^31-1", max_count));
  // Zeros, touched: first-touch page faults stay out of the timed samples.
  m_send.assign(send_bytes, std::byte{0});
  m_recv.assign(recv_bytes, std::byte{0});
}

std::vector<std::byte>& host_backend::buffer(buffer_role role, std::size_t index,
                                             std::size_t bytes) {
  auto& b = role == buffer_role::send ? m_send : m_recv;
  if (index != 0 || bytes > b.size())
    throw std::logic_error(
        fmt::format("MPI buffer access of {} bytes at local rank {}: "
                    "one rank of {} bytes per process",
                    bytes, index, b.size()));
  return b;
}

void host_backend::write(buffer_role role, std::size_t index, std::span<const std::byte> data) {
  auto& b = buffer(role, index, data.size());
  if (!data.empty()) std::memcpy(b.data(), data.data(), data.size());
}

void host_backend::read(buffer_role role, std::size_t index, std::span<std::byte> out) {
  const auto& b = buffer(role, index, out.size());
  if (!out.empty()) std::memcpy(out.data(), b.data(), out.size());
}

void host_backend::call_once(const call_args& args) {
  const int n = static_cast<int>(args.count);
  int rc = MPI_SUCCESS;
  void* send = args.in_place ? MPI_IN_PLACE : m_send.data();
  switch (args.call) {
    case collective_call::allreduce_sum:
      rc = MPI_Allreduce(send, m_recv.data(), n, m_mpi_type, MPI_SUM, m_comm);
      break;
    case collective_call::allgather:
      // In place, this rank's block is already at its place in the receive buffer.
      rc = MPI_Allgather(send, n, m_mpi_type, m_recv.data(), n, m_mpi_type, m_comm);
      break;
    case collective_call::reduce_scatter_sum:
      rc = MPI_Reduce_scatter_block(m_send.data(), m_recv.data(), n, m_mpi_type, MPI_SUM, m_comm);
      break;
    case collective_call::alltoall:
      rc = MPI_Alltoall(m_send.data(), n, m_mpi_type, m_recv.data(), n, m_mpi_type, m_comm);
      break;
    case collective_call::broadcast:
      // One buffer per rank: out of place, the root sends from its send buffer.
      rc = MPI_Bcast(m_rank == 0 && !args.in_place ? m_send.data() : m_recv.data(), n, m_mpi_type,
                     0, m_comm);
      break;
    case collective_call::sendrecv:
      rc = MPI_Sendrecv(m_send.data(), n, m_mpi_type, (m_rank + 1) % m_size, sendrecv_tag,
                        m_recv.data(), n, m_mpi_type, (m_rank + m_size - 1) % m_size, sendrecv_tag,
                        m_comm, MPI_STATUS_IGNORE);
      break;
  }
  if (rc != MPI_SUCCESS)
    check(rc, fmt::format("{} of {} over {} ranks", mpi_call_name(args.call),
                          core::format_bytes(args.count * dtype_size(m_type)), m_size));
}

double host_backend::run(const call_args& args, int iters) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i)
    call_once(args);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double host_backend::run_each(const call_args& args, int iters, std::vector<double>& per_call) {
  using clock = std::chrono::steady_clock;
  per_call.assign(static_cast<std::size_t>(std::max(0, iters)), 0.0);  // no allocation inside
  const auto start = clock::now();
  auto last = start;
  for (int i = 0; i < iters; ++i) {
    call_once(args);
    const auto now = clock::now();
    per_call[static_cast<std::size_t>(i)] = std::chrono::duration<double>(now - last).count();
    last = now;
  }
  return std::chrono::duration<double>(last - start).count();
}

nlohmann::json host_backend::describe(collective_call call) const {
  return {{"buffers", "host"}, {"library", library_version()}, {"call", mpi_call_name(call)}};
}

}  // namespace gpubench::transports::mpi

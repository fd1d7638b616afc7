// RAII for MPI communicators and the MPI error check every call goes through, so a failed
// call becomes an exception that says which call, on what, and MPI's own message.
#pragma once

#include <mpi.h>

#include <string>

namespace gpubench::transports::mpi {

// Throws std::runtime_error("<what>: <MPI error string>") unless rc is MPI_SUCCESS.
void check(int rc, const std::string& what);

// Owns a communicator (MPI_COMM_NULL: this rank is not a member); frees it on destruction.
class comm {
 public:
  comm() = default;
  explicit comm(MPI_Comm c) : m_comm(c) {}
  ~comm();
  comm(comm&& o) noexcept : m_comm(o.m_comm) { o.m_comm = MPI_COMM_NULL; }
  comm& operator=(comm&& o) noexcept;
  comm(const comm&) = delete;
  comm& operator=(const comm&) = delete;

  MPI_Comm get() const { return m_comm; }
  explicit operator bool() const { return m_comm != MPI_COMM_NULL; }
  int rank() const;
  int size() const;

 private:
  MPI_Comm m_comm = MPI_COMM_NULL;
};

// MPI_Comm_split of `parent`; color MPI_UNDEFINED gives an empty comm.
comm split(MPI_Comm parent, int color, int key, const std::string& what);

}  // namespace gpubench::transports::mpi

#include "transports/mpi/mpi_comm.hpp"

#include <stdexcept>

namespace gpubench::transports::mpi {

void check(int rc, const std::string& what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw std::runtime_error(what + ": " +
                           (len > 0 ? std::string(text, static_cast<std::size_t>(len))
                                    : "MPI error " + std::to_string(rc)));
}

comm::~comm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (m_comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&m_comm);
}

comm& comm::operator=(comm&& o) noexcept {
  if (this != &o) {
    comm old(m_comm);
    m_comm = o.m_comm;
    o.m_comm = MPI_COMM_NULL;
  }
  return *this;
}

int comm::rank() const {
  int r = 0;
  check(MPI_Comm_rank(m_comm, &r), "MPI_Comm_rank");
  return r;
}

int comm::size() const {
  int s = 0;
  check(MPI_Comm_size(m_comm, &s), "MPI_Comm_size");
  return s;
}

comm split(MPI_Comm parent, int color, int key, const std::string& what) {
  MPI_Comm c = MPI_COMM_NULL;
  check(MPI_Comm_split(parent, color, key, &c), what);
  if (c != MPI_COMM_NULL) check(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN), what);
  return comm(c);
}

}  // namespace gpubench::transports::mpi

// MPI for the lifetime of a run: initialised once (every rank of the launch), the ranks
// grouped by node, finalised at the end; and the nested sub-communicators of 1, 2, 4, ...
// nodes that one launch measures.
#pragma once

#include <string>

#include "transports/collective/runtimes.hpp"
#include "transports/mpi/mpi_comm.hpp"

namespace gpubench::coll::mpi {

class session {
 public:
  // MPI_Init_thread (funneled: only the main thread calls MPI), errors returned, not fatal.
  session();
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  int world_rank() const { return m_world_rank; }
  const launch_layout& layout() const { return m_layout; }
  int node_index() const { return m_node_index; }
  int local_rank() const { return m_local_rank; }

  // The ranks of the first `nodes` nodes (world order); empty on ranks outside them.
  comm first_nodes(int nodes) const;
  void world_barrier() const;

 private:
  bool m_initialised_here = false;
  int m_world_rank = 0;
  int m_node_index = 0;
  int m_local_rank = 0;
  launch_layout m_layout;
  comm m_node;  // the ranks sharing this node's memory
};

// "Open MPI v4.1.4, ..." (first line), callable before MPI_Init.
std::string library_version();

}  // namespace gpubench::coll::mpi

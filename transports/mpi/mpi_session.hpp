// MPI for the lifetime of a run: initialised once (every rank of the launch), the ranks
// grouped by node, finalised at the end; and the nested sub-communicators of 1, 2, 4, ...
// nodes that one launch measures.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "transports/mpi/mpi_comm.hpp"
#include "transports/mpi/mpi_runtime.hpp"

namespace gpubench::transports::mpi {

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
  // World ranks outside the first `nodes` nodes (idle while those nodes measure).
  std::vector<int> ranks_outside(int nodes) const;
  // A world barrier that polls (MPI_Ibarrier + MPI_Test) and calls `poll` between tests, so
  // a rank waiting at it can take messages and stays under its watchdog.
  void world_barrier(const std::function<void()>& poll) const;

 private:
  bool m_initialised_here = false;
  int m_world_rank = 0;
  int m_node_index = 0;
  int m_local_rank = 0;
  launch_layout m_layout;
  std::vector<int> m_rank_node;  // node index of every world rank
  comm m_node;                   // the ranks sharing this node's memory
};

// "Open MPI v4.1.4, ..." (first line), callable before MPI_Init.
std::string library_version();

}  // namespace gpubench::transports::mpi

// MPI as a collective backend and as the launch that measures 1, 2, 4, ... nodes, behind an
// interface that needs no MPI to compile: mpi_runtime.cpp (built with MPI) or mpi_none.cpp
// (answers with the reason) defines make_runtime(), so a benchmark's registration never
// depends on the library.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/launch_stop.hpp"
#include "transports/collective_backend.hpp"
#include "transports/process_group.hpp"

namespace gpubench::transports::mpi {

// How the ranks of an MPI launch sit on nodes.
struct launch_layout {
  int world_size = 1;
  std::vector<int> ranks_per_node;  // node 0 holds world rank 0
  std::vector<std::string> hosts;   // each node's processor name
  int nodes() const { return static_cast<int>(ranks_per_node.size()); }
  int ranks_on_first(int nodes) const {
    const int n = std::min(nodes, this->nodes());
    return std::accumulate(ranks_per_node.begin(), ranks_per_node.begin() + n, 0);
  }
};

// One rank's place in the sub-communicator of a case, as the case's work sees it.
class member {
 public:
  virtual ~member() = default;
  // The sub-communicator under test.
  virtual process_group& group() = 0;
  // This rank's index among the ranks of its node, and its node's index.
  virtual int local_rank() const = 0;
  virtual int node_index() const = 0;
  // The MPI backend on the sub-communicator: MPI calls on host buffers.
  virtual std::unique_ptr<collective_backend> host_backend(dtype type) = 0;
  // A sign of progress (the watchdog's heartbeat, and the idle ranks' messages).
  virtual void progress(const std::string& what) = 0;
};

// What the members of a case do, once each, on their sub-communicator.
using member_work = std::function<void(member&)>;

// What the run lends each case: how the ranks stop together (they meet before and after the
// case; nullptr: a plain world barrier after it), and what a rank does before its watchdog
// ends the job (rank 0 writes its partial result file; empty: nothing).
struct case_hooks {
  core::launch_stop* stop = nullptr;
  const std::atomic<bool>* interrupt = nullptr;  // this rank's interrupt flag
  std::function<void(const std::string& why)> before_abort;
};

// MPI: initialised on first use, finalised when the runtime goes away.
class runtime {
 public:
  virtual ~runtime() = default;
  // Why this build cannot use MPI, or nothing.
  virtual std::optional<std::string> unavailable() const = 0;
  // MPI_Get_library_version (callable before MPI_Init), "" without MPI.
  virtual std::string library_version() const = 0;
  // Initialises MPI (collective: every rank of the launch calls it) and groups ranks by node.
  virtual launch_layout layout() = 0;
  // Runs `work` on the ranks of the first `nodes` nodes, on their sub-communicator; the other
  // ranks wait at a world barrier (the hooks' meeting). Every rank is under a watchdog for the
  // whole case: no progress for `stall_timeout_s` aborts the job with a message naming
  // `label`. What `work` throws is rethrown after that barrier. When the meeting before the
  // case says stop, nothing runs: core::interrupted (a rank was interrupted) or core::stop_run
  // (a rank ended its run early) is thrown.
  virtual void run_case(int nodes, double stall_timeout_s, const std::string& label,
                        const case_hooks& hooks, const member_work& work) = 0;
};

std::unique_ptr<runtime> make_runtime();

}  // namespace gpubench::transports::mpi

// The optional halves of coll.allreduce behind small interfaces, so the benchmark's
// registration never depends on MPI or NCCL: each factory is defined by its library
// (transports/mpi, transports/nccl) or, when that was not built, by a *_none.cpp that
// answers with the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_state.hpp"
#include "transports/collective/allreduce_backend.hpp"
#include "transports/collective/allreduce_driver.hpp"
#include "transports/collective/process_group.hpp"
#include "transports/collective/scaling.hpp"

namespace gpubench::coll {

// NCCL loaded at run time: the binary starts on hosts without libnccl.
class nccl_runtime {
 public:
  virtual ~nccl_runtime() = default;
  // Why NCCL cannot run here ("NCCL not found: libnccl.so.2: cannot open ..."), or nothing.
  virtual std::optional<std::string> unavailable() = 0;
  // GPUs this process sees (0 with `why` set when there are none).
  virtual int local_gpus(std::string& why) = 0;
  // For software.nccl: version and where it was loaded from, or why not.
  virtual nlohmann::json describe() = 0;
  // One rank per GPU under MPI: `group` is the communicator under test; the device is the
  // rank's index among the ranks of its node (`node_index`: which node, to find two ranks
  // of one node on one GPU before NCCL does).
  // `stall_timeout_s`: how long a collective may take before its communicator is aborted.
  virtual std::unique_ptr<allreduce_backend> rank_backend(process_group& group, int local_rank,
                                                          int node_index, dtype type,
                                                          double stall_timeout_s) = 0;
  // NCCL's own debug output (INIT and NET lines) of this process so far, when gpubench
  // captured it (NCCL_DEBUG and NCCL_DEBUG_FILE not set by the user); "" otherwise.
  virtual std::string debug_log() = 0;
  // One process driving every local GPU (not launched by MPI).
  virtual std::unique_ptr<allreduce_backend> local_backend(dtype type, double stall_timeout_s) = 0;
};

std::unique_ptr<nccl_runtime> make_nccl_runtime();

// How the ranks of an MPI launch sit on nodes.
struct launch_layout {
  int world_size = 1;
  std::vector<int> ranks_per_node;  // node 0 holds world rank 0
  std::vector<std::string> hosts;   // each node's processor name
  int nodes() const { return static_cast<int>(ranks_per_node.size()); }
  int ranks_on_first(int nodes) const;
};

struct case_request {
  std::string backend;  // "mpi" | "nccl"
  int nodes = 1;
  allreduce_request allreduce;
  double stall_timeout_s = 120;
};

// MPI: initialised on first use, finalised when the runtime goes away.
class mpi_runtime {
 public:
  virtual ~mpi_runtime() = default;
  // Why this build cannot use MPI, or nothing.
  virtual std::optional<std::string> unavailable() const = 0;
  // MPI_Get_library_version (callable before MPI_Init), "" without MPI.
  virtual std::string library_version() const = 0;
  // Initialises MPI (collective: every rank of the launch calls it) and groups ranks by node.
  virtual launch_layout layout() = 0;
  // Measures one case on the sub-communicator of the first `nodes` nodes; ranks outside it
  // wait at a world barrier. Returns the scaling row (valid on world rank 0).
  virtual scaling_row run_case(core::case_state& state, const case_request& request,
                               nccl_runtime& nccl) = 0;
};

std::unique_ptr<mpi_runtime> make_mpi_runtime();

}  // namespace gpubench::coll

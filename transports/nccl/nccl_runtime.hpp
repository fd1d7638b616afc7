// NCCL as a collective backend, behind an interface that needs neither CUDA nor NCCL to
// compile: nccl_runtime.cpp (built with NCCL) or nccl_none.cpp (answers with the reason)
// defines make_runtime(), so a benchmark's registration never depends on the library.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "transports/collective_backend.hpp"
#include "transports/process_group.hpp"

namespace gpubench::transports::nccl {

// NCCL loaded at run time: the binary starts on hosts without libnccl.
class runtime {
 public:
  virtual ~runtime() = default;
  // Why NCCL cannot run here ("NCCL not found: libnccl.so.2: cannot open ..."), or nothing.
  virtual std::optional<std::string> unavailable() = 0;
  // GPUs this process sees (0 with `why` set when there are none).
  virtual int local_gpus(std::string& why) = 0;
  // For software.nccl: version and where it was loaded from, or why not.
  virtual nlohmann::json describe() = 0;
  // One rank per GPU under MPI: `group` is the communicator under test; the device is the
  // rank's index among the ranks of its node that see the same GPUs, modulo their number
  // (`node_index`: which node; also to find two ranks of one node on one GPU before NCCL
  // does). `stall_timeout_s`: how long a collective may take before its communicator is
  // aborted.
  virtual std::unique_ptr<collective_backend> rank_backend(process_group& group, int node_index,
                                                           dtype type, double stall_timeout_s) = 0;
  // NCCL's own debug output (INIT and NET lines) of this process so far, when gpubench
  // captured it (NCCL_DEBUG and NCCL_DEBUG_FILE not set by the user); "" otherwise.
  virtual std::string debug_log() = 0;
  // After a failure: keeps the captured debug log past the end of the run and returns its
  // path ("" when nothing was captured).
  virtual std::string keep_debug_log() = 0;
  // One process driving every local GPU (not launched by MPI).
  virtual std::unique_ptr<collective_backend> local_backend(dtype type, double stall_timeout_s) = 0;
};

std::unique_ptr<runtime> make_runtime();

}  // namespace gpubench::transports::nccl

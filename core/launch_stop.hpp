// How the processes of one launch (every rank of an mpirun/srun) stop together when any of them
// is interrupted, so none is left waiting in a collective for a rank that stopped: a rank
// passes its interrupt on (poll), and the ranks leave work they do together only at points
// where they all meet (meet). transports/mpi/stop_agreement.hpp is the MPI one; a run of one
// process has none. Main thread only (MPI is initialised MPI_THREAD_FUNNELED).
#pragma once

#include <functional>

namespace gpubench::core {

class launch_stop {
 public:
  virtual ~launch_stop() = default;
  // Between samples and cases: passes this process's interrupt on and takes the others' (which
  // raises this process's interrupt flag). Never blocks; cheap enough for every sample.
  virtual void poll() = 0;
  // A point every process of the launch reaches in the same order (before and after each
  // collective case, and finish): true when they all go on together. False on all of them
  // when any arrived interrupted (which raises every interrupt flag) or at its finish (it has
  // no more cases to run with the others). Calls `wait` while waiting. Once it said false it
  // says so again at once, without meeting.
  virtual bool meet(const std::function<void()>& wait) = 0;
  // The end of this process's sequence: a last meeting (as interrupted when it is), which also
  // meets the others at whatever point they wait when this process stopped early; nothing
  // when a meeting already said false.
  virtual void finish(const std::function<void()>& wait) = 0;
};

}  // namespace gpubench::core

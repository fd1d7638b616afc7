// Progress of a case, told to the ranks idle during it: the ranks outside a sub-communicator
// wait for the whole case, longer than any stall limit, so world rank 0 (a member of every
// sub-communicator) sends them an empty message now and then, and each beat of theirs is a
// sign that the measuring ranks are alive. Without it they could not tell a long case from
// a dead one.
#pragma once

#include <mpi.h>

#include <chrono>
#include <vector>

namespace gpubench::transports::mpi {

class progress_sender {
 public:
  // `idle`: the world ranks to tell; at most one message each per `interval`.
  progress_sender(std::vector<int> idle, std::chrono::milliseconds interval);
  ~progress_sender();
  progress_sender(const progress_sender&) = delete;
  progress_sender& operator=(const progress_sender&) = delete;

  // A beat: sends when `interval` has passed since the last send.
  void beat();
  // Waits until every idle rank took every message (synchronous sends), so none is left
  // over when the world barrier after the case completes.
  void finish();

 private:
  std::vector<int> m_idle;
  std::chrono::milliseconds m_interval;
  std::chrono::steady_clock::time_point m_last{};
  std::vector<MPI_Request> m_requests;
};

// On an idle rank: takes the messages that arrived from world rank 0; true when any did.
bool take_progress();

}  // namespace gpubench::transports::mpi

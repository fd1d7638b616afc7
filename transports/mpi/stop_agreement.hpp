// The stop agreement of an MPI launch (core/launch_stop.hpp): how every rank stops within
// seconds when one of them, or the launcher, is interrupted. MPI is initialised
// MPI_THREAD_FUNNELED and a blocking collective cannot be interrupted, so no rank leaves work
// it does with others on its own:
// - poll (main thread, between samples): an interrupted rank sends rank 0 an empty message;
//   rank 0, interrupted by a signal or by such a message, sends one to every rank; a rank that
//   takes one raises its own interrupt flag. Ranks measuring by themselves stop at their next
//   sample; the members of a collective case stop together at the sample where their vote
//   (case_state's consensus) carries the interrupt.
// - meet (before and after every collective case, and at the end of the run): a non-blocking
//   MPI_Iallreduce (MAX) of 0 (go on), 1 (finished) or 2 (interrupted), tested in a loop, so a
//   rank that stopped early meets the others wherever they wait, and idle ranks learn of it.
// Messages and meetings use a duplicate of MPI_COMM_WORLD: they never match anyone else's.
// When a rank is inside a call that cannot return, core::stop_watch ends the job (end_job).
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "core/launch_stop.hpp"

namespace gpubench::transports::mpi {

// Every rank of the launch calls it at the same point of its sequence (it initialises MPI when
// no one has yet, and duplicates the world communicator). `flag`: this process's interrupt
// flag; `raise`: raises it when another rank stopped. nullptr in a build without MPI.
std::unique_ptr<core::launch_stop> open_stop_agreement(const std::atomic<bool>& flag,
                                                       std::function<void()> raise);

// Ends every rank of the job with exit code `code` (MPI_Abort) while MPI runs, else this
// process (_Exit). Callable from any thread: it is what a thread does when the main thread
// cannot be reached (outside the letter of MPI_THREAD_FUNNELED, as the watchdog's abort).
[[noreturn]] void end_job(int code);

}  // namespace gpubench::transports::mpi

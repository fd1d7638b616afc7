#include "transports/mpi/stop_agreement.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <thread>

#include "transports/mpi/mpi_comm.hpp"
#include "transports/mpi/mpi_session.hpp"

namespace gpubench::transports::mpi {

namespace {

using clock = std::chrono::steady_clock;

// The only tag on the agreement's own communicator: "stop" (an empty message).
constexpr int stop_tag = 1;
// What a rank brings to a meeting; the meeting's answer is the largest.
constexpr int go_on = 0;
constexpr int finished = 1;
constexpr int interrupted = 2;
// poll() is called after every sample: MPI is asked at most this often.
constexpr std::chrono::milliseconds poll_every{10};

class stop_agreement final : public core::launch_stop {
 public:
  stop_agreement(const std::atomic<bool>& flag, std::function<void()> raise)
      : m_flag(flag), m_raise(std::move(raise)) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) m_session.emplace();
    MPI_Comm dup = MPI_COMM_NULL;
    check(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "MPI_Comm_dup of the world for the stop agreement");
    m_comm = comm(dup);
    check(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    m_rank = m_comm.rank();
    m_size = m_comm.size();
  }

  void poll() override {
    const auto now = clock::now();
    if (now - m_last_poll < poll_every) return;
    m_last_poll = now;
    take();
    if (m_flag.load() && !m_told) tell();
  }

  bool meet(const std::function<void()>& wait) override {
    m_last_poll = {};
    poll();
    return meeting(m_flag.load() ? interrupted : go_on, wait) == go_on;
  }

  void finish(const std::function<void()>& wait) override {
    m_last_poll = {};
    poll();
    if (!m_over) meeting(m_flag.load() ? interrupted : finished, wait);
    take();  // leave no message of ours unreceived
  }

 private:
  // Takes every stop message that arrived; the first one raises this rank's flag.
  void take() {
    for (;;) {
      int found = 0;
      MPI_Status status{};
      check(MPI_Iprobe(MPI_ANY_SOURCE, stop_tag, m_comm.get(), &found, &status),
            "MPI_Iprobe for stop messages");
      if (!found) return;
      check(MPI_Recv(nullptr, 0, MPI_BYTE, status.MPI_SOURCE, stop_tag, m_comm.get(),
                     MPI_STATUS_IGNORE),
            "MPI_Recv of a stop message from rank " + std::to_string(status.MPI_SOURCE));
      if (!m_flag.load()) m_raise();
      // Rank 0 told everyone: nothing to pass on. Rank 0 itself passes a rank's stop on.
      if (m_rank != 0) m_told = true;
    }
  }

  // Passes this rank's interrupt on: to rank 0, or from rank 0 to every rank.
  void tell() {
    m_told = true;
    for (int r = 0; r < m_size; ++r) {
      if (r == m_rank || (m_rank != 0 && r != 0)) continue;
      MPI_Request request = MPI_REQUEST_NULL;
      check(MPI_Isend(nullptr, 0, MPI_BYTE, r, stop_tag, m_comm.get(), &request),
            "MPI_Isend of a stop message to rank " + std::to_string(r));
      // An empty message completes by itself; the request is not waited for.
      MPI_Request_free(&request);
    }
  }

  int meeting(int mine, const std::function<void()>& wait) {
    if (m_over) return m_result;
    int all = go_on;
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MAX, m_comm.get(), &request),
          "MPI_Iallreduce of the stop agreement");
    for (;;) {
      int done = 0;
      check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test of the stop agreement");
      if (done) break;
      take();
      if (m_flag.load() && !m_told) tell();
      if (wait) wait();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (all != go_on) {
      m_over = true;
      m_result = all;
    }
    if (all == interrupted && !m_flag.load()) m_raise();
    return all;
  }

  const std::atomic<bool>& m_flag;
  std::function<void()> m_raise;
  std::optional<session> m_session;  // when MPI was initialised here (finalised last)
  comm m_comm;
  int m_rank = 0;
  int m_size = 1;
  bool m_told = false;  // this rank's interrupt was passed on (or came from rank 0)
  bool m_over = false;  // a meeting said stop: no more meetings
  int m_result = go_on;
  clock::time_point m_last_poll{};
};

}  // namespace

std::unique_ptr<core::launch_stop> open_stop_agreement(const std::atomic<bool>& flag,
                                                       std::function<void()> raise) {
  return std::make_unique<stop_agreement>(flag, std::move(raise));
}

void end_job(int code) {
  int initialised = 0, finalized = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalized);
  if (initialised && !finalized) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; should it, leave anyway
}

}  // namespace gpubench::transports::mpi

#include "cli/run_stop.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "transports/mpi/stop_agreement.hpp"
#include "transports/mpi/watchdog.hpp"

namespace gpubench::cli {

namespace {

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace

run_stop::run_stop(core::interrupt_guard& guard, std::filesystem::path out,
                   const transports::mpi::launch_env& launch)
    : m_guard(guard), m_rank(launch.rank), m_launched(launch.launched), m_file(std::move(out)) {
  const auto grace = m_rank == 0 ? stop_grace_rank0 : stop_grace_others;
  // Both callbacks run on the watch's thread: the partial file is written under its lock.
  m_watch.emplace(
      guard.flag(), grace, [this] { m_file.write_partial(); },
      [this, grace] {
        std::fprintf(stderr,
                     "gpubench: rank %d: interrupted, but the run did not stop within %.1f s (a "
                     "call that cannot be interrupted, such as a collective, is under way): "
                     "ending the job\n",
                     m_rank, static_cast<double>(grace.count()) / 1000);
        std::fflush(stderr);
        if (m_file.write_partial("the job was ended: the interrupted run did not stop in time"))
          std::fprintf(stderr, "gpubench: the results measured so far are in %s\n",
                       m_file.path().c_str());
        transports::mpi::end_job(130);
      });
}

run_stop::~run_stop() {
  m_agreement.reset();  // MPI_Finalize, when MPI was initialised for it, under the watch
  m_watch.reset();
}

void run_stop::join(core::run_context& ctx, std::chrono::milliseconds startup) {
  ctx.save_partial = [this](const std::string& why) { m_file.write_partial(why); };
  if (!m_launched) return;
  // MPI_Init and MPI_Comm_dup are collectives: a rank that never arrives ends the job.
  transports::mpi::watchdog guard(startup, [this](const std::string& why) {
    std::fprintf(stderr, "gpubench: rank %d: MPI start-up: %s; aborting the MPI job\n", m_rank,
                 why.c_str());
    std::fflush(stderr);
    transports::mpi::end_job(3);
  });
  guard.beat("starting MPI and the launch's stop agreement");
  m_agreement =
      transports::mpi::open_stop_agreement(m_guard.flag(), [this] { m_guard.raise_from_peer(); });
  ctx.stop = m_agreement.get();
}

int run_stop::end(int code) {
  if (m_agreement) m_agreement->finish({});
  if (!m_guard.stopped()) return code;
  if (m_rank == 0) {
    const int sig = m_guard.signal();
    fmt::print(stderr, "gpubench: interrupted ({}); the results measured so far are in {}\n",
               sig != 0 ? signal_name(sig) : "a signal on another rank of the launch",
               m_file.path().string());
  }
  return 130;
}

}  // namespace gpubench::cli

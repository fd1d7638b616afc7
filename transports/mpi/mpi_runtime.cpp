// The MPI runtime of the collective benchmarks: one launch, nested sub-communicators of the
// first 1, 2, 4, ... nodes, on which the case's work runs (the MPI or the NCCL backend).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "transports/mpi/launch_env.hpp"
#include "transports/mpi/mpi_backend.hpp"
#include "transports/mpi/mpi_group.hpp"
#include "transports/mpi/mpi_progress.hpp"
#include "transports/mpi/mpi_runtime.hpp"
#include "transports/mpi/mpi_session.hpp"
#include "transports/mpi/watchdog.hpp"

namespace gpubench::transports::mpi {

namespace {

// A rank of the sub-communicator, as the case's work sees it.
class sub_member final : public member {
 public:
  sub_member(const session& s, const comm& sub, progress_fn progress)
      : m_session(s), m_sub(sub), m_group(sub.get()), m_progress(std::move(progress)) {}
  process_group& group() override { return m_group; }
  int local_rank() const override { return m_session.local_rank(); }
  int node_index() const override { return m_session.node_index(); }
  std::unique_ptr<collective_backend> host_backend(dtype type) override {
    return std::make_unique<mpi::host_backend>(m_sub.get(), type);
  }
  void progress(const std::string& what) override { m_progress(what); }

 private:
  const session& m_session;
  const comm& m_sub;
  mpi::group m_group;
  progress_fn m_progress;
};

class mpi_real final : public runtime {
 public:
  std::optional<std::string> unavailable() const override { return std::nullopt; }
  std::string library_version() const override { return mpi::library_version(); }

  launch_layout layout() override { return get().layout(); }

  void run_case(int nodes, double stall_timeout_s, const std::string& label,
                const case_hooks& hooks, const member_work& work) override {
    session& s = get();
    const auto limit = std::chrono::milliseconds(static_cast<long long>(stall_timeout_s * 1000));
    // Armed from the meeting before the case to the one after it, on every rank: a rank that
    // waits forever anywhere (a peer died or hangs, a member failed locally and left its
    // collectives) aborts the whole job, which also ends an srun step.
    std::optional<watchdog> dog;
    dog.emplace(limit, abort_job(s.world_rank(), label, hooks.before_abort));
    // Every rank meets before the case: one that stopped early (interrupted between cases)
    // meets the others here, and no rank enters the split without all of them.
    if (hooks.stop) {
      dog->beat("meeting the other ranks before the case");
      if (!hooks.stop->meet({})) {
        dog.reset();
        // A meeting that says a rank was interrupted has raised this rank's flag too.
        if (hooks.interrupt && hooks.interrupt->load()) throw core::interrupted();
        throw core::stop_run("another rank of the launch ended its run before this case");
      }
    }
    dog->beat(fmt::format("splitting the world into the first {} node(s)", nodes));
    comm sub = s.first_nodes(nodes);
    std::exception_ptr failure;
    if (sub) {
      // World rank 0 is a member of every sub-communicator: it tells the idle ranks that the
      // case goes on, at most every quarter of the limit.
      progress_sender tell(s.world_rank() == 0 ? s.ranks_outside(nodes) : std::vector<int>{},
                           std::max(limit / 4, std::chrono::milliseconds(1)));
      const progress_fn progress = [&dog, &tell](const std::string& what) {
        dog->beat(what);
        tell.beat();
      };
      try {
        sub_member m(s, sub, progress);
        work(m);
      } catch (...) {
        failure = std::current_exception();
      }
      dog->beat("waiting for the idle ranks to take the progress messages");
      tell.finish();
      // Every world rank reaches this barrier, also the ranks idle during this case, so the
      // next case starts together. NCCL work has completed inside `work`.
      dog->beat("waiting at the world barrier after the case");
      after_case(s, hooks, {});
    } else {
      // Idle for the whole case: twice the limit between two signs of progress, since world
      // rank 0 sends one at most every quarter of it and a sample may take the whole limit.
      dog.reset();
      dog.emplace(2 * limit, abort_job(s.world_rank(), label, hooks.before_abort));
      const std::string what =
          fmt::format("waiting (idle) while the first {} node(s) measure", nodes);
      dog->beat(what);
      after_case(s, hooks, [&] {
        if (take_progress()) dog->beat(what);
      });
    }
    dog.reset();
    if (failure) std::rethrow_exception(failure);
  }

 private:
  // The world barrier after a case: the stop agreement's meeting when there is one, so the
  // ranks idle during the case learn that the members stopped (their flags are raised).
  static void after_case(session& s, const case_hooks& hooks, const std::function<void()>& poll) {
    if (hooks.stop)
      hooks.stop->meet(poll);
    else
      s.world_barrier(poll);
  }

  session& get() {
    if (!m_session) {
      m_session.emplace();
      if (auto why = world_size_mismatch(detect_launch(), m_session->layout().world_size,
                                         mpi::library_version()))
        throw core::usage_error(*why);
    }
    return *m_session;
  }

  // What a stalled rank does: say why, then MPI_Abort, which ends every rank of the job
  // (mpirun, and srun with or without --kill-on-bad-exit), not this process alone.
  // `before` first (rank 0 writes its partial result file).
  static std::function<void(const std::string&)> abort_job(
      int rank, const std::string& label, std::function<void(const std::string&)> before) {
    return [rank, label, before](const std::string& why) {
      std::fprintf(stderr,
                   "gpubench: rank %d: %s: %s; a peer rank died, hangs or failed: "
                   "aborting the MPI job\n",
                   rank, label.c_str(), why.c_str());
      std::fflush(stderr);
      if (before) before("the job was ended (" + label + ": " + why + ")");
      // Members that wait in one collective see the stall at about the same moment: rank 0
      // ends the job first, its partial file written; the others a second later (should rank
      // 0 be the one that hangs), since their MPI_Abort would have mpirun kill rank 0 mid-write.
      if (rank != 0) std::this_thread::sleep_for(std::chrono::seconds(1));
      MPI_Abort(MPI_COMM_WORLD, 3);
      std::_Exit(3);  // MPI_Abort does not return; should it, leave anyway
    };
  }

  std::optional<session> m_session;
};

}  // namespace

std::unique_ptr<runtime> make_runtime() {
  return std::make_unique<mpi_real>();
}

}  // namespace gpubench::transports::mpi

// The MPI runtime of coll.allreduce: one launch, nested sub-communicators of the first 1, 2,
// 4, ... nodes, each measured by the common driver with the MPI or the NCCL backend.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "transports/collective/launch_env.hpp"
#include "transports/collective/runtimes.hpp"
#include "transports/collective/watchdog.hpp"
#include "transports/mpi/mpi_allreduce.hpp"
#include "transports/mpi/mpi_group.hpp"
#include "transports/mpi/mpi_progress.hpp"
#include "transports/mpi/mpi_session.hpp"

namespace gpubench::coll {

namespace {

class mpi_real final : public mpi_runtime {
 public:
  std::optional<std::string> unavailable() const override { return std::nullopt; }
  std::string library_version() const override { return mpi::library_version(); }

  launch_layout layout() override { return get().layout(); }

  scaling_row run_case(core::case_state& state, const case_request& req,
                       nccl_runtime& nccl) override {
    mpi::session& s = get();
    const auto limit =
        std::chrono::milliseconds(static_cast<long long>(req.stall_timeout_s * 1000));
    // Armed from the split to the world barrier after the case, on every rank: a rank that
    // waits forever anywhere (a peer died or hangs, a member failed locally and left its
    // collectives) aborts the whole job, which also ends an srun step.
    std::optional<watchdog> dog;
    dog.emplace(limit, abort_job(s.world_rank()));
    dog->beat(fmt::format("splitting the world into the first {} node(s)", req.nodes));
    mpi::comm sub = s.first_nodes(req.nodes);
    scaling_row row;
    std::exception_ptr failure;
    if (sub) {
      // World rank 0 is a member of every sub-communicator: it tells the idle ranks that the
      // case goes on, at most every quarter of the limit.
      mpi::progress_sender tell(
          s.world_rank() == 0 ? s.ranks_outside(req.nodes) : std::vector<int>{},
          std::max(limit / 4, std::chrono::milliseconds(1)));
      const progress_fn progress = [&dog, &tell](const std::string& what) {
        dog->beat(what);
        tell.beat();
      };
      try {
        row = run_member(state, req, nccl, s, sub, progress);
      } catch (...) {
        failure = std::current_exception();
      }
      dog->beat("waiting for the idle ranks to take the progress messages");
      tell.finish();
      // Every world rank reaches this barrier, also the ranks idle during this case, so the
      // next case starts together. NCCL work has completed inside run_member.
      dog->beat("waiting at the world barrier after the case");
      s.world_barrier({});
    } else {
      // Idle for the whole case: twice the limit between two signs of progress, since world
      // rank 0 sends one at most every quarter of it and a sample may take the whole limit.
      dog.reset();
      dog.emplace(2 * limit, abort_job(s.world_rank()));
      const std::string what =
          fmt::format("waiting (idle) while the first {} node(s) measure", req.nodes);
      dog->beat(what);
      s.world_barrier([&] {
        if (mpi::take_progress()) dog->beat(what);
      });
    }
    dog.reset();
    if (failure) std::rethrow_exception(failure);
    row.nodes = req.nodes;
    return row;
  }

 private:
  mpi::session& get() {
    if (!m_session) {
      m_session.emplace();
      if (auto why = world_size_mismatch(detect_launch(), m_session->layout().world_size))
        throw core::usage_error(*why);
    }
    return *m_session;
  }

  // What a stalled rank does: say why, then MPI_Abort, which ends every rank of the job
  // (mpirun, and srun with or without --kill-on-bad-exit), not this process alone.
  static std::function<void(const std::string&)> abort_job(int rank) {
    return [rank](const std::string& why) {
      std::fprintf(stderr,
                   "gpubench: rank %d: coll.allreduce: %s; a peer rank died, hangs or failed: "
                   "aborting the MPI job\n",
                   rank, why.c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 3);
      std::_Exit(3);  // MPI_Abort does not return; should it, leave anyway
    };
  }

  scaling_row run_member(core::case_state& state, const case_request& req, nccl_runtime& nccl,
                         mpi::session& s, mpi::comm& sub, const progress_fn& progress) {
    mpi::group g(sub.get());
    std::unique_ptr<allreduce_backend> backend;
    if (req.backend == "mpi") {
      backend = std::make_unique<mpi::host_allreduce>(sub.get(), req.allreduce.type);
    } else {
      // Skipping must be collective: every member learns whether any member cannot run.
      std::string why;
      if (auto u = nccl.unavailable()) why = *u;
      const bool missing = g.any(!why.empty());
      if (missing)
        throw core::skip_case(why.empty() ? "NCCL is unavailable on another rank of this launch"
                                          : why);
      progress("initialising NCCL");
      backend = nccl.rank_backend(g, s.local_rank(), s.node_index(), req.allreduce.type,
                                  req.stall_timeout_s);
    }
    const launch_layout& l = s.layout();
    auto& ctx = state.context_info();
    ctx["launch"] = {
        {"launcher", detect_launch().launcher},
        {"world_size", l.world_size},
        {"nodes_in_launch", l.nodes()},
        {"ranks_per_node",
         std::vector<int>(l.ranks_per_node.begin(), l.ranks_per_node.begin() + req.nodes)},
        {"hosts", std::vector<std::string>(l.hosts.begin(), l.hosts.begin() + req.nodes)}};
    ctx["backend"] = backend->describe();
    return measure_allreduce(state, *backend, g, req.allreduce, progress);
  }

  std::optional<mpi::session> m_session;
};

}  // namespace

std::unique_ptr<mpi_runtime> make_mpi_runtime() {
  return std::make_unique<mpi_real>();
}

}  // namespace gpubench::coll

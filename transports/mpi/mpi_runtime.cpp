// The MPI runtime of coll.allreduce: one launch, nested sub-communicators of the first 1, 2,
// 4, ... nodes, each measured by the common driver with the MPI or the NCCL backend.
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
    mpi::comm sub = s.first_nodes(req.nodes);
    scaling_row row;
    std::exception_ptr failure;
    if (sub) {
      try {
        row = run_member(state, req, nccl, s, sub);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    // Every world rank reaches this barrier, also the ranks idle during this case, so the
    // next case starts together. NCCL work has completed inside run_member.
    s.world_barrier();
    if (failure) std::rethrow_exception(failure);
    row.nodes = req.nodes;
    return row;
  }

 private:
  mpi::session& get() {
    if (!m_session) m_session.emplace();
    return *m_session;
  }

  scaling_row run_member(core::case_state& state, const case_request& req, nccl_runtime& nccl,
                         mpi::session& s, mpi::comm& sub) {
    mpi::group g(sub.get());
    const int rank = s.world_rank();
    // A peer that died or hangs blocks MPI forever: leave, so the launcher ends the job.
    watchdog dog(std::chrono::milliseconds(static_cast<long long>(req.stall_timeout_s * 1000)),
                 [rank](const std::string& why) {
                   std::fprintf(stderr,
                                "gpubench: rank %d: coll.allreduce: %s; a peer rank died or "
                                "hangs: leaving so the launch fails\n",
                                rank, why.c_str());
                   std::fflush(stderr);
                   std::_Exit(3);
                 });
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
      backend = nccl.rank_backend(g, s.local_rank(), req.allreduce.type, req.stall_timeout_s);
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
    return measure_allreduce(state, *backend, g, req.allreduce, &dog);
  }

  std::optional<mpi::session> m_session;
};

}  // namespace

std::unique_ptr<mpi_runtime> make_mpi_runtime() {
  return std::make_unique<mpi_real>();
}

}  // namespace gpubench::coll

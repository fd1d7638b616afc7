// How `run` stops when interrupted (docs/cluster.md, "Every phase has a deadline"): the result
// file kept for a write from any thread (rank 0 writes it, "partial", the moment the interrupt
// is seen), under mpirun/srun the launch's stop agreement lent to the runner, and a watch that
// ends the job when the run has not stopped by itself within a few seconds.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/interrupt.hpp"
#include "core/launch_stop.hpp"
#include "core/partial_file.hpp"
#include "core/run_context.hpp"
#include "core/stop_watch.hpp"
#include "transports/mpi/launch_env.hpp"

namespace gpubench::cli {

// The grace an interrupted run has to stop by itself: rank 0 (or a run of one process) first,
// so that it writes its file and ends the job before any other rank would.
inline constexpr std::chrono::milliseconds stop_grace_rank0{3000};
inline constexpr std::chrono::milliseconds stop_grace_others{3500};

// MPI start-up's deadline: four cluster timeouts (--cluster-timeout), as in cluster mode.
inline std::chrono::milliseconds startup_limit(double cluster_timeout_s) {
  const double s = cluster_timeout_s >= 2 && cluster_timeout_s <= 86400 ? cluster_timeout_s : 60;
  return std::chrono::milliseconds(static_cast<long long>(4 * s * 1000));
}

class run_stop {
 public:
  // Starts the watch; `out` is the result file (written by rank 0 only).
  run_stop(core::interrupt_guard& guard, std::filesystem::path out,
           const transports::mpi::launch_env& launch);
  run_stop(const run_stop&) = delete;
  run_stop& operator=(const run_stop&) = delete;
  ~run_stop();

  core::partial_file& file() { return m_file; }
  // Under an MPI launch: opens the stop agreement (every rank, at the same point; MPI is
  // initialised here when it is not yet, within `startup`) and lends it to `ctx`. Always lends
  // the partial write.
  void join(core::run_context& ctx, std::chrono::milliseconds startup);
  // The end of the run on this rank: the agreement's last meeting, then `code`, or 130 when
  // the run was interrupted (here or on another rank), said on stderr by rank 0.
  int end(int code);

 private:
  core::interrupt_guard& m_guard;
  int m_rank = 0;
  bool m_launched = false;
  core::partial_file m_file;
  std::optional<core::stop_watch> m_watch;
  std::unique_ptr<core::launch_stop> m_agreement;
};

}  // namespace gpubench::cli

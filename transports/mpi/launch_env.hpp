// Whether this process was started by an MPI launcher (mpirun, srun), read from the
// variables the launchers set, so every rank knows before MPI_Init whether it is one.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gpubench::transports::mpi {

struct launch_env {
  bool launched = false;  // under mpirun/srun
  int rank = 0;           // world rank, 0 when not launched
  int size = 1;           // world size when the launcher says it (PMIx alone does not)
  std::string launcher;   // "Open MPI", "PMI", "PMIx": which variables said so
  // Tasks the launcher started (Open MPI, PMI, or Slurm's step), 0 when unknown.
  int launcher_tasks = 0;
  // Set when srun started several tasks without a PMI (Slurm's MpiDefault=none): every task
  // would be a world of one and self-launch mpirun on its node. What to do instead.
  std::optional<std::string> problem;
};

using env_lookup = std::function<std::optional<std::string>(const char*)>;

// From the process environment.
launch_env detect_launch();
// From any lookup (tests).
launch_env detect_launch(const env_lookup& env);

// Whether MPI's world matches the launch: nothing, or why not (the launcher started N tasks
// but MPI_Init gave a world of M: the tasks did not find the launcher's PMI).
std::optional<std::string> world_size_mismatch(const launch_env& launch, int world_size);

// The process environment as an env_lookup.
env_lookup process_env();

}  // namespace gpubench::transports::mpi

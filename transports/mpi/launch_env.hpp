// Whether this process was started by an MPI launcher (mpirun, srun), read from the
// variables the launchers set, so every rank knows before MPI_Init whether it is one.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpubench::transports::mpi {

struct launch_env {
  bool launched = false;  // under mpirun/srun
  int rank = 0;           // world rank, 0 when not launched
  int size = 1;           // world size when the launcher says it (PMIx alone does not)
  std::string launcher;   // "Open MPI", "PMI", "PMIx": which variables said so
  // Tasks the launcher started (Open MPI, PMI, or Slurm's step), 0 when unknown.
  int launcher_tasks = 0;
  // Tasks of an srun step started without a PMI (Slurm's MpiDefault=none), 0 otherwise: every
  // task would be an MPI world of one (and believe it is rank 0). launch_problem says so.
  int tasks_without_pmi = 0;
};

using env_lookup = std::function<std::optional<std::string>(const char*)>;

// From the process environment.
launch_env detect_launch();
// From any lookup (tests).
launch_env detect_launch(const env_lookup& env);

// Why this launch cannot be one MPI job (srun started tasks without a PMI), with the srun
// --mpi that the MPI library `mpi_library` (MPI_Get_library_version) needs; or nothing.
std::optional<std::string> launch_problem(const launch_env& launch, std::string_view mpi_library);

// Whether MPI's world matches the launch: nothing, or why not (the launcher started N tasks
// but MPI_Init gave a world of M: the tasks did not find the launcher's PMI), with the srun
// --mpi that `mpi_library` needs.
std::optional<std::string> world_size_mismatch(const launch_env& launch, int world_size,
                                               std::string_view mpi_library);

// The process environment as an env_lookup.
env_lookup process_env();

}  // namespace gpubench::transports::mpi

// Whether this process was started by an MPI launcher (mpirun, srun), read from the
// variables the launchers set, so every rank knows before MPI_Init whether it is one.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gpubench::coll {

struct launch_env {
  bool launched = false;  // under mpirun/srun
  int rank = 0;           // world rank, 0 when not launched
  int size = 1;           // world size when the launcher says it (PMIx alone does not)
  std::string launcher;   // "Open MPI", "PMI", "PMIx": which variables said so
};

using env_lookup = std::function<std::optional<std::string>(const char*)>;

// From the process environment.
launch_env detect_launch();
// From any lookup (tests).
launch_env detect_launch(const env_lookup& env);

// The process environment as an env_lookup.
env_lookup process_env();

}  // namespace gpubench::coll

// Which `srun --mpi=` plugin joins the tasks of a Slurm step into one MPI job, for the MPI
// library gpubench runs with (MPI_Get_library_version, callable before MPI_Init): advice that
// names what works with that library, not a list of plugins to try.
#pragma once

#include <string>
#include <string_view>

namespace gpubench::transports::mpi {

struct srun_advice {
  std::string plugin;  // "pmix", "pmi2", or "" when the library gives no safe answer
  std::string text;    // "use srun --mpi=pmix: Open MPI v4.1.4 ..."
};

// From the library's version string ("Open MPI v4.1.4", "MPICH Version: 4.0.2", "" when this
// build has no MPI).
srun_advice srun_mpi_for(std::string_view mpi_library);

}  // namespace gpubench::transports::mpi

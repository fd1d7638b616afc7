// The srun --mpi advice names what works with the MPI library gpubench runs with.
#include <gtest/gtest.h>

#include "transports/mpi/srun_hint.hpp"

namespace mpi = gpubench::transports::mpi;

// Open MPI without Slurm's PMI support (Debian's, most distributions') dies in MPI_Init under
// --mpi=pmi2 ("OMPI was not built with SLURM's PMI support"): only pmix is advised.
TEST(SrunHint, OpenMpiIsPmix) {
  const auto a = mpi::srun_mpi_for("Open MPI v4.1.4");
  EXPECT_EQ(a.plugin, "pmix");
  EXPECT_EQ(a.text.rfind("use srun --mpi=pmix: Open MPI v4.1.4 ", 0), 0u) << a.text;
  EXPECT_EQ(a.text.find("use srun --mpi=pmi2"), std::string::npos) << a.text;
  EXPECT_EQ(mpi::srun_mpi_for("Open MPI v5.0.3, package: Open MPI ...").plugin, "pmix");
}

// MPICH reports "MPICH Version:<tabs>4.0.2" (and more lines): pmi2, the version kept readable.
TEST(SrunHint, MpichIsPmi2) {
  const auto a = mpi::srun_mpi_for("MPICH Version:\t\t4.0.2\nMPICH Release date: ...");
  EXPECT_EQ(a.plugin, "pmi2");
  EXPECT_EQ(a.text,
            "use srun --mpi=pmi2: MPICH Version: 4.0.2 joins an srun step through "
            "Slurm's PMI-2");
}

// A library it does not know: no plugin is guessed; the library is named.
TEST(SrunHint, UnknownLibraryNamesNoPlugin) {
  const auto a = mpi::srun_mpi_for("Intel(R) MPI Library 2021.9 for Linux* OS");
  EXPECT_EQ(a.plugin, "");
  EXPECT_NE(a.text.find("(Intel(R) MPI Library 2021.9 for Linux* OS)"), std::string::npos)
      << a.text;
  EXPECT_EQ(a.text.find("use srun --mpi="), std::string::npos) << a.text;
}

TEST(SrunHint, WithoutMpi) {
  const auto a = mpi::srun_mpi_for("");
  EXPECT_EQ(a.plugin, "");
  EXPECT_NE(a.text.find("built without MPI"), std::string::npos) << a.text;
}

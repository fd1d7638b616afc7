#include "transports/mpi/srun_hint.hpp"

namespace gpubench::transports::mpi {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The first line, with runs of blanks (MPICH pads its "Version:" with tabs) made one space.
std::string one_line(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, text.find('\n'))) {
    const bool blank = c == ' ' || c == '\t';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out.push_back(blank ? ' ' : c);
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

}  // namespace

srun_advice srun_mpi_for(std::string_view mpi_library) {
  const std::string name = one_line(mpi_library);
  if (name.empty())
    return {"",
            "this gpubench was built without MPI, so no srun --mpi plugin makes its tasks one "
            "job: start one task (srun -n 1), or build gpubench with MPI"};
  // Open MPI (3.x, 4.x, 5.x) always has PMIx; Slurm's PMI-1/PMI-2 only when it was configured
  // --with-pmi (Debian's and most distributions' builds are not): MPI_Init then fails with
  // "OMPI was not built with SLURM's PMI support".
  if (starts_with(name, "Open MPI"))
    return {"pmix", "use srun --mpi=pmix: " + name +
                        " joins an srun step through PMIx (--mpi=pmi2 works only with an Open "
                        "MPI configured --with-pmi)"};
  // MPICH's PMI client speaks the PMI-1/PMI-2 wire protocol over PMI_FD, which Slurm's pmi2
  // plugin serves.
  if (starts_with(name, "MPICH"))
    return {"pmi2", "use srun --mpi=pmi2: " + name + " joins an srun step through Slurm's PMI-2"};
  return {"", "which srun --mpi plugin works depends on the MPI library (" + name +
                  "): see its documentation for srun; `srun --mpi=list` shows what this site "
                  "has"};
}

}  // namespace gpubench::transports::mpi

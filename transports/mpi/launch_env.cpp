#include "transports/mpi/launch_env.hpp"

#include <charconv>
#include <cstdlib>

#include "transports/mpi/srun_hint.hpp"

namespace gpubench::transports::mpi {

namespace {

std::optional<int> as_int(const std::optional<std::string>& text) {
  if (!text || text->empty()) return std::nullopt;
  int v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc{} || end != text->data() + text->size() || v < 0) return std::nullopt;
  return v;
}

std::optional<int> slurm_step_tasks(const env_lookup& env) {
  if (auto n = as_int(env("SLURM_STEP_NUM_TASKS"))) return n;
  return as_int(env("SLURM_NTASKS"));
}

// Which launcher's variables are present (detect_launch adds the checks).
launch_env detect_launcher(const env_lookup& env) {
  launch_env l;
  // Open MPI's own variables first: they are the most specific.
  const auto ompi_rank = as_int(env("OMPI_COMM_WORLD_RANK"));
  const auto ompi_size = as_int(env("OMPI_COMM_WORLD_SIZE"));
  if (ompi_rank && ompi_size) {
    l = {true, *ompi_rank, *ompi_size, "Open MPI", *ompi_size, 0};
    return l;
  }
  // MPICH's Hydra and srun --mpi=pmi2.
  const auto pmi_rank = as_int(env("PMI_RANK"));
  const auto pmi_size = as_int(env("PMI_SIZE"));
  if (pmi_rank && pmi_size) {
    l = {true, *pmi_rank, *pmi_size, "PMI", *pmi_size, 0};
    return l;
  }
  // srun --mpi=pmix and PRRTE: the rank is known, the size comes from MPI itself.
  const auto pmix_rank = as_int(env("PMIX_RANK"));
  if (pmix_rank) {
    const auto slurm_size = slurm_step_tasks(env);
    l = {true, *pmix_rank, slurm_size.value_or(0), "PMIx", slurm_size.value_or(0), 0};
    return l;
  }
  return l;
}

}  // namespace

env_lookup process_env() {
  return [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

launch_env detect_launch() {
  return detect_launch(process_env());
}

launch_env detect_launch(const env_lookup& env) {
  launch_env l = detect_launcher(env);
  // SLURM_STEP_NUM_TASKS is srun's (a batch script's own step does not set it).
  const auto step_tasks = as_int(env("SLURM_STEP_NUM_TASKS"));
  if (!l.launched && env("SLURM_PROCID") && step_tasks && *step_tasks > 1)
    l.tasks_without_pmi = *step_tasks;
  if (l.launched && l.launcher_tasks == 0 && step_tasks) l.launcher_tasks = *step_tasks;
  return l;
}

std::optional<std::string> launch_problem(const launch_env& launch, std::string_view mpi_library) {
  if (launch.tasks_without_pmi <= 1) return std::nullopt;
  return "srun started " + std::to_string(launch.tasks_without_pmi) +
         " tasks without a PMI (no PMIX_RANK, PMI_RANK or OMPI_COMM_WORLD_RANK in the "
         "environment; Slurm's MpiDefault=none?): each task would be an MPI world of one; " +
         srun_mpi_for(mpi_library).text;
}

std::optional<std::string> world_size_mismatch(const launch_env& launch, int world_size,
                                               std::string_view mpi_library) {
  if (!launch.launched || launch.launcher_tasks <= 0 || launch.launcher_tasks == world_size)
    return std::nullopt;
  return "the launcher (" + launch.launcher + ") started " + std::to_string(launch.launcher_tasks) +
         " tasks but MPI's world has " + std::to_string(world_size) +
         " rank(s): the tasks did not join one MPI job; under srun, " +
         srun_mpi_for(mpi_library).text;
}

}  // namespace gpubench::transports::mpi
